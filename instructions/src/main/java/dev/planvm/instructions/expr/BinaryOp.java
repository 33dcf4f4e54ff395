package dev.planvm.instructions.expr;

/** Binary operators of the expression language, all left-associative. */
public enum BinaryOp {
    OR("||", 1),
    AND("&&", 2),
    EQ("==", 3),
    NE("!=", 3),
    LT("<", 4),
    LE("<=", 4),
    GT(">", 4),
    GE(">=", 4),
    ADD("+", 5),
    SUB("-", 5),
    MUL("*", 6),
    DIV("/", 6),
    MOD("%", 6);

    private final String symbol;
    private final int precedence;

    BinaryOp(String symbol, int precedence) {
        this.symbol = symbol;
        this.precedence = precedence;
    }

    /** The operator as written in source. */
    public String symbol() {
        return symbol;
    }

    /** Binding strength: 1 for {@code ||} up to 6 for {@code * / %}. */
    int precedence() {
        return precedence;
    }
}
