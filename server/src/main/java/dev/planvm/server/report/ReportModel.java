package dev.planvm.server.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.server.internal.Html;
import java.util.List;

/**
 * What the report's renderer ({@code report.js}) draws, built once on the server from a {@link ReportInput}:
 * the run's summary, lineage and differences, its flow graph ({@link FlowGraph}) and timeline ({@link Timeline})
 * laid out as data, and its steps with their values pretty-printed and cut. Everything in it is bounded (at most
 * {@value #MAX_STEPS} steps listed, values cut at {@value #MAX_VALUE_CHARS} characters), whatever the trace's
 * size. The same model feeds {@code planvm report}'s page and the run page of the browser ({@code GET
 * /v1/runs/{id}/report}).
 *
 * <pre>{@code
 * {"title", "summary": {"status", "plan", "mode", "started", "finished", "steps", "error", "pending", "use", "result"},
 *  "lineage": [...], "diff": [...], "reach": {...} (ReachSection), "graph": {...}, "timeline": {...},
 *  "steps": [{"n", "seq", "type", "duration_ms", "failed", "inputs", "writes", "jump", "error", "children"}],
 *  "more_steps"}
 * }</pre>
 */
final class ReportModel {

    /** The longest value shown in full in a step's details. */
    static final int MAX_VALUE_CHARS = 20_000;
    /** Steps listed with their details. */
    static final int MAX_STEPS = 2000;

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private ReportModel() {}

    /** The model of {@code input}. */
    public static ObjectNode of(ReportInput input) {
        JsonNode trace = input.trace();
        ObjectNode model = JSON.objectNode().put("title", input.title());
        model.set("summary", summary(trace));
        input.lineage().forEach(model.putArray("lineage")::add);
        input.diff().forEach(line -> model.withArray("diff").add(Html.cut(line, 2000)));
        model.withArray("diff");
        if (input.reach() != null && input.reach().isObject()) {
            model.set("reach", ReachSection.of(input.reach(), trace));
        }
        model.set("graph", FlowGraph.of(input.plan(), trace));
        model.set("timeline", Timeline.of(trace));
        JsonNode steps = trace.path("steps");
        int shown = Math.min(steps.size(), MAX_STEPS);
        ArrayNode list = model.putArray("steps");
        for (int i = 0; i < shown; i++) {
            JsonNode step = steps.get(i);
            ObjectNode entry = list.addObject()
                    .put("n", i + 1)
                    .put("seq", step.path("seq_no").asInt())
                    .put("type", step.path("type").asText())
                    .put("duration_ms", step.path("duration_ms").asDouble())
                    .put("failed", step.hasNonNull("error"));
            value(entry, "inputs", step.path("inputs"));
            value(entry, "writes", step.path("writes"));
            if (step.has("jump")) {
                value(entry, "jump", step.path("jump"));
            }
            if (step.hasNonNull("error")) {
                entry.put("error", Html.cut(step.path("error").asText(), MAX_VALUE_CHARS));
            }
            for (JsonNode call : step.path("calls")) {
                if (call.hasNonNull("child_run_id")) {
                    entry.withArray("children").add(call.path("child_run_id").asText());
                }
            }
        }
        model.put("more_steps", steps.size() - shown);
        return model;
    }

    /**
     * Names {@code children} under the steps that started them ({@code "children"} of a step), where the trace
     * did not already: the k-th child of seq_no S goes to the k-th step of seq_no S (a stored run's trace keeps no
     * {@code calls}, so its steps do not name their child runs).
     */
    public static ObjectNode withChildren(ObjectNode model, List<ChildReport> children) {
        java.util.Set<String> named = new java.util.HashSet<>();
        model.path("steps").forEach(step -> step.path("children").forEach(c -> named.add(c.asText())));
        java.util.Map<Integer, Integer> taken = new java.util.HashMap<>();
        for (ChildReport child : children) {
            if (named.contains(child.id())) {
                continue;
            }
            int k = taken.merge(child.seqNo(), 1, Integer::sum);
            for (JsonNode step : model.path("steps")) {
                if (step.path("seq").asInt() == child.seqNo() && --k == 0) {
                    ((ObjectNode) step).withArray("children").add(child.id());
                    break;
                }
            }
        }
        return model;
    }

    private static ObjectNode summary(JsonNode trace) {
        ObjectNode summary = JSON.objectNode()
                .put("status", trace.path("status").asText("?"))
                .put("plan", trace.path("plan").path("source").asText("?"))
                .put("mode", trace.path("mode").asText("?"))
                .put("started", trace.path("started").asText(""))
                .put("finished", trace.path("finished").asText(""))
                .put("steps", trace.path("steps").size());
        JsonNode error = trace.path("error");
        if (error.isObject()) {
            String where = error.hasNonNull("seq_no")
                    ? "seq_no " + error.path("seq_no").asInt() + " ("
                            + error.path("type").asText() + "): "
                    : "";
            summary.put("error", Html.cut(where + error.path("message").asText(), 2000));
        }
        if (trace.hasNonNull("pending")) {
            JsonNode pending = trace.path("pending");
            ObjectNode shown = summary.putObject("pending")
                    .put("seq_no", pending.path("seq_no").asInt());
            if (pending.has("element")) {
                shown.put("element", pending.path("element").asInt());
            }
            shown.put("tool", pending.path("tool").asText())
                    .put("params", Html.cut(pending.path("params").toString(), 500));
        }
        if (trace.path("use").asBoolean(false)) {
            summary.put("use", true); // seed 001's use: the result goes back to the LLM that wrote the plan
        }
        JsonNode result = trace.path("result");
        String text = result.isTextual() ? result.asText() : pretty(result);
        if (text.length() > MAX_VALUE_CHARS) {
            summary.set("result", TextNode.valueOf(Html.cut(text, MAX_VALUE_CHARS)));
        } else {
            summary.set("result", result.isMissingNode() ? JSON.nullNode() : result);
        }
        return summary;
    }

    private static void value(ObjectNode entry, String name, JsonNode value) {
        if (value.isMissingNode() || value.isNull() || (value.isContainerNode() && value.isEmpty())) {
            return;
        }
        entry.put(name, Html.cut(pretty(value), MAX_VALUE_CHARS));
    }

    private static String pretty(JsonNode value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }
}
