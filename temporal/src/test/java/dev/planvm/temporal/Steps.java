package dev.planvm.temporal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The committed step sequence of a trace, without timings: what a local run and a workflow must agree on. */
final class Steps {

    private Steps() {}

    /**
     * Each step's {@code seq_no}, type, writes, inputs (attempt durations left out, and what the concurrency
     * limits of the process that made the calls did: {@code limits}, {@code slot_wait_ms}), jump and error.
     */
    static ArrayNode of(JsonNode trace) {
        ArrayNode steps = JsonNodeFactory.instance.arrayNode();
        for (JsonNode step : trace.path("steps")) {
            ObjectNode kept = steps.addObject();
            kept.set("seq_no", step.get("seq_no"));
            kept.set("type", step.get("type"));
            kept.set("writes", step.get("writes"));
            ObjectNode inputs = step.path("inputs").deepCopy();
            inputs.remove(java.util.List.of("limits", "slot_wait_ms")); // the limits of this process, like timings
            if (inputs.get("attempts") instanceof ArrayNode attempts) {
                attempts.forEach(a -> ((ObjectNode) a).remove(java.util.List.of("duration_ms", "waited_ms")));
            }
            kept.set("inputs", inputs);
            if (step.has("jump")) {
                kept.set("jump", step.get("jump"));
            }
            if (step.has("error")) {
                kept.set("error", step.get("error"));
            }
        }
        return steps;
    }
}
