package dev.planvm.tools.cassette;

/** A cassette file that cannot be read or written; the message says which file and why. */
public final class CassetteException extends RuntimeException {
    public CassetteException(String message) {
        super(message);
    }

    public CassetteException(String message, Throwable cause) {
        super(message, cause);
    }
}
