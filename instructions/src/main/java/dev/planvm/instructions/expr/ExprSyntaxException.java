package dev.planvm.instructions.expr;

/**
 * A syntax error in an expression or template. The message is a plain sentence for users (it does
 * not contain the offset); {@link #offset()} is the 0-based character offset in the string that
 * was parsed.
 */
public final class ExprSyntaxException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int offset;

    /** Creates an exception with a user-facing message and the offset of the offending character. */
    public ExprSyntaxException(String message, int offset) {
        super(message);
        this.offset = offset;
    }

    /** 0-based character offset in the parsed string where the problem was found. */
    public int offset() {
        return offset;
    }
}
