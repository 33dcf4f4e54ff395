package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.server.internal.Html;
import java.util.HashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What the report shows of a plan's reach ({@code planvm-reach/1}) beside what the run did: one row per tool the plan
 * could reach — its effect, whether approval gates it, the most calls on any path, its call sites — with how many
 * steps of its sites this run executed ({@code ran}: sites inside a plan tool run in the child's report, and are not
 * counted here); the paths that reach a call with no approval, the hosts, the jumps decided at run time, the notes
 * and the policy's violations. Bounded: at most {@value #MAX_ROWS} rows, text cut.
 *
 * <pre>{@code
 * {"tools": [{"tool", "kind", "effect", "approval", "most", "sites", "ran"}], "more_tools",
 *  "unapproved": [...], "hosts": [...], "branches": [...], "notes": [...], "violations": [...]}
 * }</pre>
 */
final class ReachSection {

    static final int MAX_ROWS = 200;
    private static final int MAX_TEXT = 2000;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ReachSection() {}

    static ObjectNode of(JsonNode reach, JsonNode trace) {
        Map<Integer, Integer> ran = new HashMap<>();
        for (JsonNode step : trace.path("steps")) {
            ran.merge(step.path("seq_no").asInt(), 1, Integer::sum);
        }
        ObjectNode section =
                JSON.objectNode().put("complete", reach.path("complete").asBoolean(true));
        ArrayNode rows = section.putArray("tools");
        ArrayNode unapproved = section.putArray("unapproved");
        int count = 0;
        for (JsonNode tool : reach.path("tools")) {
            if (count++ >= MAX_ROWS) {
                continue;
            }
            StringJoiner sites = new StringJoiner(", ");
            int executed = 0;
            for (JsonNode call : tool.path("calls")) {
                sites.add(site(call) + (call.path("for_each").asBoolean() ? " (for_each)" : ""));
                if (call.path("via").isEmpty()) {
                    executed += ran.getOrDefault(call.path("seq_no").asInt(), 0);
                }
            }
            String kind = tool.path("kind").asText();
            rows.addObject()
                    .put("tool", tool.path("tool").asText())
                    .put("kind", kind)
                    .put("effect", tool.path("effect").asText())
                    .put("approval", kind.equals("condition") ? "-" : approval(tool))
                    .put("most", most(tool.path("max_calls")))
                    .put("sites", Html.cut(sites.toString(), MAX_TEXT))
                    .put("ran", executed);
            JsonNode path = tool.path("unapproved_path");
            if (path.isArray()) {
                unapproved.add(Html.cut(tool.path("tool").asText() + ": " + path(path), MAX_TEXT));
            }
        }
        section.put("more_tools", Math.max(0, count - MAX_ROWS));
        copy(reach.path("hosts"), section.putArray("hosts"), false);
        ArrayNode branches = section.putArray("branches");
        for (JsonNode branch : reach.path("branches")) {
            if (branches.size() < MAX_ROWS) {
                branches.add("seq_no " + site(branch) + ": "
                        + ("llm".equals(branch.path("decided_by").asText())
                                ? "an LLM decides"
                                : "a run-time condition decides")
                        + ", both ways taken");
            }
        }
        copy(reach.path("notes"), section.putArray("notes"), false);
        copy(reach.path("violations"), section.putArray("violations"), true);
        return section;
    }

    private static String approval(JsonNode tool) {
        int approved = 0;
        int all = 0;
        for (JsonNode call : tool.path("calls")) {
            all++;
            if (call.path("approved").asBoolean()) {
                approved++;
            }
        }
        return approved == all ? "yes" : approved == 0 ? "no" : "some";
    }

    private static String most(JsonNode count) {
        if (count.path("unbounded").asBoolean()) {
            return "unbounded (loop " + path(count.path("loop")) + ")";
        }
        long calls = count.path("calls").asLong();
        long perElement = count.path("per_element").asLong();
        if (perElement == 0) {
            return String.valueOf(calls);
        }
        return (calls == 0 ? "" : calls + " + ") + perElement + " per element";
    }

    private static String path(JsonNode sites) {
        StringJoiner joiner = new StringJoiner(" → ");
        sites.forEach(site -> joiner.add(site(site)));
        return joiner.toString();
    }

    /** {@code 5}, or {@code notify@4/2} for seq_no 2 of the plan tool called at seq_no 4. */
    private static String site(JsonNode site) {
        StringBuilder text = new StringBuilder();
        for (JsonNode frame : site.path("via")) {
            text.append(frame.path("tool").asText())
                    .append('@')
                    .append(frame.path("seq_no").asInt())
                    .append('/');
        }
        return text.append(site.path("seq_no").asInt()).toString();
    }

    private static void copy(JsonNode from, ArrayNode to, boolean messages) {
        for (JsonNode item : from) {
            if (to.size() >= MAX_ROWS) {
                return;
            }
            to.add(Html.cut(messages ? item.path("message").asText() : item.asText(), MAX_TEXT));
        }
    }
}
