package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.run.RunOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * How the store writes a run's {@link RunOptions}: {@code {"allow_tools": [...], "deny_tools": [...],
 * "approve_tools": [...], "max_steps": N, "origin": "serve", "keep_going": true}} (keys left out when empty or false).
 */
final class OptionsJson {

    private OptionsJson() {}

    static ObjectNode write(RunOptions options) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        list(json, "allow_tools", options.allowTools());
        list(json, "deny_tools", options.denyTools());
        list(json, "approve_tools", options.approveTools());
        if (options.maxSteps() != null) {
            json.put("max_steps", options.maxSteps());
        }
        if (options.origin() != null) {
            json.put("origin", options.origin());
        }
        if (options.keepGoing()) {
            json.put("keep_going", true);
        }
        return json;
    }

    /** The options of a stored run; {@code null} (a store of an earlier version) or unreadable ones are the defaults. */
    static RunOptions read(JsonNode json) {
        if (json == null || !json.isObject()) {
            return RunOptions.DEFAULT;
        }
        try {
            return new RunOptions(
                    strings(json.get("allow_tools")),
                    strings(json.get("deny_tools")),
                    strings(json.get("approve_tools")),
                    json.hasNonNull("max_steps") ? json.get("max_steps").asInt() : null,
                    json.hasNonNull("origin") ? json.get("origin").asText() : null,
                    null,
                    json.path("keep_going").asBoolean(false));
        } catch (IllegalArgumentException e) {
            throw new StoreException("the run store holds unusable run options " + json + ": " + e.getMessage(), e);
        }
    }

    /** A compiled plan's source lines as the store keeps them: {@code {"0": 2, "1": 5}}. */
    static ObjectNode writeLines(java.util.Map<Integer, Integer> lines) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        new java.util.TreeMap<>(lines).forEach((seqNo, line) -> json.put(String.valueOf(seqNo), line));
        return json;
    }

    /** The source lines {@link #writeLines} wrote; none for {@code null} (a JSON plan, or a store of an earlier version). */
    static java.util.Map<Integer, Integer> readLines(JsonNode json) {
        java.util.Map<Integer, Integer> lines = new java.util.HashMap<>();
        if (json != null && json.isObject()) {
            json.properties().forEach(e -> {
                try {
                    if (e.getValue().canConvertToInt()) {
                        lines.put(Integer.parseInt(e.getKey()), e.getValue().intValue());
                    }
                } catch (NumberFormatException ignored) {
                    // not a seq_no: skipped, lines are only a help
                }
            });
        }
        return lines;
    }

    private static void list(ObjectNode json, String key, List<String> values) {
        if (!values.isEmpty()) {
            values.forEach(json.putArray(key)::add);
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        if (array != null) {
            array.forEach(value -> values.add(value.asText()));
        }
        return values;
    }
}
