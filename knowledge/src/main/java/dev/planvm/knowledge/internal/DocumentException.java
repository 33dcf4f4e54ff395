package dev.planvm.knowledge.internal;

/** A document that cannot be read, told in one sentence that the indexer prefixes with the file. */
public final class DocumentException extends Exception {
    private static final long serialVersionUID = 1L;

    public DocumentException(String message) {
        super(message, null, false, false);
    }
}
