package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/** One recorded call of a {@link Cassette}. */
public sealed interface Interaction permits Interaction.ToolInteraction, Interaction.ConditionInteraction {

    /** How long the real call took, in milliseconds ({@code --replay-timing} waits this long). */
    long durationMs();

    /** A tool call: matched by tool name and params. */
    record ToolInteraction(String tool, JsonNode params, JsonNode output, long durationMs) implements Interaction {
        public ToolInteraction {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(params, "params");
            Objects.requireNonNull(output, "output");
        }
    }

    /** An LLM condition: matched by prompt and context. */
    record ConditionInteraction(String prompt, JsonNode context, boolean result, String explanation, long durationMs)
            implements Interaction {
        public ConditionInteraction {
            Objects.requireNonNull(prompt, "prompt");
            Objects.requireNonNull(context, "context");
            Objects.requireNonNull(explanation, "explanation");
        }
    }
}
