package dev.planvm.instructions.expr;

/** Kinds of tokens produced by {@link Lexer}. */
enum TokenType {
    LPAREN("("),
    RPAREN(")"),
    LBRACKET("["),
    RBRACKET("]"),
    LBRACE("{"),
    RBRACE("}"),
    COMMA(","),
    DOT("."),
    COLON(":"),
    PLUS("+"),
    MINUS("-"),
    STAR("*"),
    SLASH("/"),
    PERCENT("%"),
    BANG("!"),
    BANG_EQ("!="),
    EQ_EQ("=="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    AND_AND("&&"),
    OR_OR("||"),
    IDENT(null),
    NUMBER(null),
    STRING(null),
    TRUE("true"),
    FALSE("false"),
    NULL("null"),
    EOF(null);

    private final String fixedText;

    TokenType(String fixedText) {
        this.fixedText = fixedText;
    }

    /** The source text of punctuation and keywords, null for identifiers, literals and EOF. */
    String fixedText() {
        return fixedText;
    }
}
