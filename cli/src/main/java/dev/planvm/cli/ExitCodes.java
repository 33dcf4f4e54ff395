package dev.planvm.cli;

/** The exit codes of every planvm command (DESIGN §5). */
final class ExitCodes {
    static final int OK = 0;
    static final int RUNTIME_FAILURE = 1;
    static final int INVALID = 2;

    private ExitCodes() {
    }
}
