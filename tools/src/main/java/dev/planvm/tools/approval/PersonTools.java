package dev.planvm.tools.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The built-in tools {@code human_input} and {@code sleep} every VM has (unless a tool of the same name is
 * registered). A run's call chain answers their calls itself, through the run's {@link Approvals} (a
 * durable run's store); these objects name them, describe them, check their params, and answer the calls
 * that reach them: {@code human_input} fails there (no one to ask), {@code sleep} just sleeps.
 */
public final class PersonTools {

    private PersonTools() {}

    /** Both built-ins. */
    public static List<Tool> all() {
        return List.of(new HumanInput(), new Sleep());
    }

    /** Whether {@code tool} is one of the built-ins (not a user's tool of the same name). */
    public static boolean isBuiltIn(Tool tool) {
        return tool instanceof HumanInput || tool instanceof Sleep;
    }

    private static final class HumanInput implements Tool {
        @Override
        public String name() {
            return InputRequest.TOOL;
        }

        @Override
        public String description() {
            return "Asks a person and returns the answer: params {prompt, schema?, choices?}; a durable run waits "
                    + "(planvm answer RUN --value JSON), a run on a terminal asks there.";
        }

        @Override
        public JsonNode paramsSchema() {
            return InputRequest.paramsSchema();
        }

        @Override
        public boolean hasSideEffects() {
            return true;
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            InputRequest.of(params);
            throw ToolException.permanent("human_input needs a durable run or a terminal");
        }
    }

    private static final class Sleep implements Tool {
        @Override
        public String name() {
            return SleepRequest.TOOL;
        }

        @Override
        public String description() {
            return "Waits {seconds} (up to 30 days) or {until: ISO-8601 time}; a durable run resumed later waits "
                    + "only what is left. Returns {slept_seconds, woke_at}.";
        }

        @Override
        public JsonNode paramsSchema() {
            return SleepRequest.paramsSchema();
        }

        @Override
        public boolean hasSideEffects() {
            return true;
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            SleepRequest request = SleepRequest.of(params);
            Clock clock = Clock.systemUTC();
            Instant wake = request.wake(clock.instant());
            Duration left = Duration.between(clock.instant(), wake);
            try {
                if (!left.isNegative() && !left.isZero()) {
                    Thread.sleep(left.toMillis());
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new ToolException("interrupted while sleeping", false, interrupted);
            }
            return SleepRequest.output(left.isNegative() ? Duration.ZERO : left, wake);
        }
    }
}
