package dev.planvm.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One event of a run, as {@code GET /v1/runs/{id}/events} sends it: {@code id: ID}, {@code event: TYPE},
 * {@code data: JSON}. Types: {@code run_started}, {@code run_resumed}, {@code step_started},
 * {@code step_committed}, {@code step_failed}, {@code call_started}, {@code call_answered},
 * {@code call_failed}, {@code call_retried}, {@code child_started}, {@code child_finished} (a plan tool's
 * child run: {@code seq_no}, {@code tool}, {@code child_run}, and its {@code status} when it ended),
 * {@code run_finished}.
 *
 * <p>Ids only grow and say where the event is: {@code ((step * 10,000) + session) * 1,000 + n}, where
 * {@code step} is the index the current step commits with, {@code session} counts the processes that worked
 * on the run, and {@code n} orders the events of that step (999: the step committed, or the run finished
 * after it). So the ids of {@code step_committed} and {@code run_finished} are the same whether the event
 * was seen live or rebuilt from the run store, and a client that resumes with {@code Last-Event-ID} misses
 * nothing.
 */
public record RunEvent(long id, String type, ObjectNode data) {

    /** The last {@code n} of a step: its commit, or the end of the run before it. */
    static final int LAST = 999;

    public RunEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(data, "data");
    }

    /** The id of the {@code n}th event of step {@code step} in session {@code session}. */
    static long id(long step, int session, int n) {
        return (step * 10_000L + Math.min(session, 9_999)) * 1_000L + n;
    }
}
