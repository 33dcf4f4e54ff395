package dev.planvm.instructions.expr;

/** Prefix operators of the expression language. */
public enum UnaryOp {
    NOT("!"),
    NEGATE("-");

    private final String symbol;

    UnaryOp(String symbol) {
        this.symbol = symbol;
    }

    /** The operator as written in source. */
    public String symbol() {
        return symbol;
    }
}
