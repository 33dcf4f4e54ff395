package dev.planvm.cli;

/** The exit codes of every planvm command (DESIGN §5). */
final class ExitCodes {
    static final int OK = 0;
    static final int RUNTIME_FAILURE = 1;
    static final int INVALID = 2;
    /** The run waits for a reviewer's approval of a tool call ({@code planvm approve RUN} continues it). */
    static final int WAITING = 3;
    /** A batch stopped by Ctrl-C or SIGTERM (128 + SIGINT's number, as shells report it). */
    static final int INTERRUPTED = 130;

    private ExitCodes() {}
}
