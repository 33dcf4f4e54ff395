package dev.planvm.vm.run;

import java.util.Locale;

/**
 * The one vocabulary of how a run (or a plan file in a batch) stands. A {@link RunResult} is
 * {@link #SUCCEEDED}, {@link #COMPLETED_WITH_FAILURES} (it kept going past failed steps to its end),
 * {@link #FAILED}, {@link #WAITING} (stopped before a call that needs a reviewer's
 * approval) or {@link #INTERRUPTED} (stopped at a commit point before its end: a resume continues it);
 * the run store keeps {@link #RUNNING} for runs in progress (and for interrupted ones, which it tells
 * apart by their owner being gone, so stores written before this status still read); batch and
 * regression runs of plan files add {@link #INVALID} and {@link #REJECTED} for plans that never
 * ran. JSON reports, the store and expectations use {@link #label()}.
 */
public enum RunStatus {
    /** Started and not finished: in progress, or its process died (a resume continues it). */
    RUNNING,
    /**
     * A session of the run stopped at a commit point before the run's end (a signal, a server shutting down,
     * a stop request): nothing is lost, and a resume continues it.
     */
    INTERRUPTED,
    /** The program counter passed the last instruction (or a handler halted), and no step failed. */
    SUCCEEDED,
    /**
     * The run reached its end, but steps failed and it went on past them because it keeps going
     * ({@link RunOptions#keepGoing()}; {@link RunResult#failedSteps()} lists them): its answer is there, and the
     * command line exits 1. Nothing is left to resume; a rerun from a failed step runs it again.
     */
    COMPLETED_WITH_FAILURES,
    /** A step failed, the step limit was hit, or (strict) {@code final_answer} was never set. */
    FAILED,
    /** The plan did not validate (or could not be read); nothing ran. */
    INVALID,
    /** The plan is valid but cannot run here (a tool not installed, no LLM, a missing cassette); nothing ran. */
    REJECTED,
    /**
     * Stopped before a tool call that needs a reviewer's approval ({@code approveTools}); the step
     * was not committed, and approving (or denying) the call continues the run.
     */
    WAITING;

    /** The lower-case name: {@code succeeded}, {@code completed_with_failures}, {@code failed}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The status with this {@link #label()}; an unknown label is an {@link IllegalArgumentException}. */
    public static RunStatus ofLabel(String label) {
        for (RunStatus status : values()) {
            if (status.label().equals(label)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown run status '" + label + "'");
    }
}
