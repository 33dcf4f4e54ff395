package dev.planvm.cli;

import dev.planvm.vm.run.FailureKind;

/** The exit codes of every planvm command (DESIGN §5). */
final class ExitCodes {
    static final int OK = 0;
    static final int RUNTIME_FAILURE = 1;
    static final int INVALID = 2;
    /** The run waits for a reviewer's approval of a tool call ({@code planvm approve RUN} continues it). */
    static final int WAITING = 3;
    /**
     * The run succeeded and its plan ends in seed 001's {@code use}: the value printed goes back to the LLM that
     * wrote the plan, for another planning round, rather than being the answer ({@code run}, {@code resume},
     * {@code rerun}; {@code ask} plans that round itself).
     */
    static final int USE = 4;
    /** A run or batch stopped by Ctrl-C or SIGTERM (128 + SIGINT's number, as shells report it). */
    static final int INTERRUPTED = 130;

    private ExitCodes() {}

    /**
     * The exit code of a command that failed with {@code failure}, decided by its kind alone (never by its
     * message): 2 when it refused before running anything, 3 when a run waits for approval, input or a timer, 130
     * when it was interrupted, 1 for everything that failed while running.
     */
    static int of(FailureKind failure) {
        return switch (failure) {
            case INVALID_PLAN, REJECTED_BEFORE_RUNNING, NO_SUCH_RUN, CONFLICT -> INVALID;
            case WAITING_FOR_APPROVAL, WAITING_FOR_INPUT, WAITING_FOR_TIMER -> WAITING;
            case INTERRUPTED -> INTERRUPTED;
            case STEP_FAILED, LIMIT_REACHED, STORE_FAILED, STORE_FULL, UNAVAILABLE, CANCELLED -> RUNTIME_FAILURE;
        };
    }
}
