package dev.planvm.instructions.expr;

/** Entry point for parsing a standalone expression (the text that would go inside {@code ${}}). */
public final class ExprParser {

    private ExprParser() {}

    /**
     * Parses {@code expression}, which must consist of exactly one expression (surrounding
     * whitespace allowed).
     *
     * @throws ExprSyntaxException with the offset into {@code expression} of the problem
     */
    public static Expr parse(String expression) {
        Parser parser = new Parser(expression, 0, -1);
        Token first = parser.current();
        if (first.type() == TokenType.EOF) {
            throw new ExprSyntaxException("empty expression", first.pos());
        }
        Expr e = parser.expression();
        Token rest = parser.current();
        if (rest.type() != TokenType.EOF) {
            throw new ExprSyntaxException(
                    "unexpected " + rest.describe() + " after the end of the expression", rest.pos());
        }
        return e;
    }
}
