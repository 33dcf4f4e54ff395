package dev.planvm.dialects.internal;

/** A syntax problem at a character offset of the text being scanned; caught and turned into a diagnostic. */
public final class SyntaxError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int offset;

    public SyntaxError(String message, int offset) {
        super(message, null, false, false);
        this.offset = offset;
    }

    public int offset() {
        return offset;
    }
}
