package dev.planvm.tools.cassette;

import dev.planvm.json.TerminalText;

/**
 * A cassette file that cannot be read or written; the message says which file and why, on one line:
 * text from the cassette (or the file name) that could forge a line or drive a terminal is escaped
 * ({@link TerminalText}).
 */
public final class CassetteException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CassetteException(String message) {
        super(TerminalText.safe(message));
    }

    public CassetteException(String message, Throwable cause) {
        super(TerminalText.safe(message), cause);
    }
}
