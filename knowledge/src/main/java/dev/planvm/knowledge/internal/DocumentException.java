package dev.planvm.knowledge.internal;

/**
 * A document that cannot be read, told in one sentence that the indexer prefixes with the file. A
 * {@link #skipped} one is not broken but refused at a limit: the indexer reports it as a warning.
 */
public final class DocumentException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean skipped;

    public DocumentException(String message) {
        this(message, false);
    }

    private DocumentException(String message, boolean skipped) {
        super(message, null, false, false);
        this.skipped = skipped;
    }

    /** A document left out at a limit (a warning, not a failure). */
    public static DocumentException skipped(String message) {
        return new DocumentException(message, true);
    }

    public boolean skipped() {
        return skipped;
    }
}
