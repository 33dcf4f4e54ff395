package dev.planvm.tools.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.call.Call;
import java.time.Instant;
import java.util.Optional;

/**
 * Who decides whether a tool call that needs a reviewer's approval may proceed ({@link ApprovalRules}
 * say which calls need one). Asked once per such call, just before it would be made, on the run's
 * thread. Implementations: the run store's recorded decisions (durable runs), a prompt on a terminal,
 * a test's fixed answer.
 *
 * <p>The same person (or store) answers the built-in {@code human_input} tool ({@link #answer}) and keeps the
 * wake time of the built-in {@code sleep} tool ({@link #wakeAt}), so that a durable run that waits for
 * either goes on where it stopped.
 */
@FunctionalInterface
public interface Approvals {

    /** Nobody has decided anything: every call that needs approval waits. */
    Approvals NONE = call -> Optional.empty();

    /**
     * The decision about {@code call} (its params interpolated), or empty when there is none yet: the
     * run then stops, waiting, before the call is made.
     */
    Optional<Decision> decide(Call.ToolCall call);

    /**
     * The answer to a {@code human_input} call ({@link InputRequest} of its params), or empty when there is
     * none yet: the run then stops, waiting for it ({@link InputRequired}). The default knows no answer.
     * An answer given here is checked against the request before it becomes the call's output.
     */
    default Optional<JsonNode> answer(Call.ToolCall call) {
        return Optional.empty();
    }

    /**
     * Whether a {@code human_input} call with no {@link #answer} yet may stop the run, waiting (the run is
     * stored, so an answer given later finds it); else the call fails. The default: no.
     */
    default boolean waitsForInput() {
        return false;
    }

    /**
     * Whether a {@code sleep} call with time left may stop the run, waiting for its wake time ({@link SleepRequired};
     * the run is stored with it, and a timer of the process that serves it continues it when it is due), instead of
     * holding its thread while it sleeps. The default: no (the run sleeps where it runs).
     */
    default boolean waitsForTimer() {
        return false;
    }

    /**
     * When the {@code sleep} call started: when its wake time was kept, else {@code now}. A run that waited for its
     * timer reports the whole sleep, from then to its wake time. The default keeps nothing and returns {@code now}.
     */
    default Instant sleptSince(Call.ToolCall call, Instant now) {
        return now;
    }

    /**
     * When the {@code sleep} call ends: the wake time kept for this call when it started before (a run
     * resumed after a restart sleeps only what is left), else {@code planned}, kept now. The default keeps
     * nothing and returns {@code planned}.
     */
    default Instant wakeAt(Call.ToolCall call, Instant planned) {
        return planned;
    }

    /**
     * A reviewer's decision about one call.
     *
     * @param approved whether the call may proceed
     * @param reason   why (shown to the plan when denied); may be empty
     */
    record Decision(boolean approved, String reason) {
        public Decision {
            reason = reason == null ? "" : reason;
        }

        public static Decision approve() {
            return new Decision(true, "");
        }

        public static Decision deny(String reason) {
            return new Decision(false, reason);
        }
    }
}
