package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.ToolException;
import java.util.Locale;
import java.util.Objects;

/**
 * A step that failed and did not stop the run: a call handled by its {@code on_error} (the variable
 * {@code last_error} holds {@link #lastError()}), or any step of a run that keeps going
 * ({@link RunOptions#keepGoing()}; {@link RunResult#failedSteps()} lists them).
 *
 * @param seqNo   the step's {@code seq_no}
 * @param type    the instruction type
 * @param tool    the tool a {@code calling} called, or {@code null}
 * @param kind    what kind of failure it was
 * @param message the cause, in a sentence (as the trace and the run's error would say it)
 */
public record StepError(int seqNo, String type, String tool, Kind kind, String message) {

    /**
     * What kind of step failure it was: the tool's own kind ({@link ToolException.Kind}: it failed, timed out, was
     * denied), or {@code step_failed} for a failure of the step itself (an expression, an output that does not fit
     * {@code output_vars}). Only failures of kind {@link FailureKind#STEP_FAILED} are ever recovered from
     * ({@link #recoverable}).
     */
    public enum Kind {
        TOOL_ERROR,
        TIMEOUT,
        DENIED,
        STEP_FAILED;

        /** {@code tool_error}, {@code timeout}, {@code denied}, {@code step_failed}: as {@code last_error} shows it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        private static final int MAX_CAUSES = 20;

        /**
         * The kind of {@code failure}: the most specific kind a {@link ToolException} among it and its causes says
         * (a retry or a wrapper may hide a timeout), else {@link #STEP_FAILED}.
         */
        public static Kind of(Throwable failure) {
            Kind found = STEP_FAILED;
            Throwable e = failure;
            for (int depth = 0; e != null && depth < MAX_CAUSES; depth++, e = e.getCause()) {
                if (e instanceof ToolException tool) {
                    Kind kind = switch (tool.kind()) {
                        case TOOL_ERROR -> TOOL_ERROR;
                        case TIMEOUT -> TIMEOUT;
                        case DENIED -> DENIED;
                    };
                    if (kind != TOOL_ERROR) {
                        return kind;
                    }
                    found = TOOL_ERROR;
                }
            }
            return found;
        }
    }

    public StepError {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    /**
     * Whether a step that failed with {@code failure} may let the run go on ({@code on_error}, keep-going): only a
     * failure of the step itself. What protects the machine (a limit, the run store) always stops the run, and so do
     * a wait for approval, an interruption and a cancellation.
     */
    public static boolean recoverable(Throwable failure) {
        return switch (FailureKind.of(failure)) {
            case STEP_FAILED, INVALID_PLAN, REJECTED_BEFORE_RUNNING, NO_SUCH_RUN, CONFLICT, UNAVAILABLE -> true;
            case LIMIT_REACHED,
                    STORE_FAILED,
                    STORE_FULL,
                    WAITING_FOR_APPROVAL,
                    WAITING_FOR_INPUT,
                    WAITING_FOR_TIMER,
                    INTERRUPTED,
                    CANCELLED -> false;
        };
    }

    /** The value of {@code last_error}: {@code {"seq_no", "tool", "kind", "message"}}. */
    public ObjectNode lastError() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("seq_no", seqNo);
        json.put("tool", tool);
        json.put("kind", kind.label());
        json.put("message", message);
        return json;
    }

    /** As a run's result lists it: {@code {"seq_no", "type", "tool", "kind", "message"}} ({@code tool} only for a call). */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("seq_no", seqNo);
        json.put("type", type);
        if (tool != null) {
            json.put("tool", tool);
        }
        json.put("kind", kind.label());
        json.put("message", message);
        return json;
    }
}
