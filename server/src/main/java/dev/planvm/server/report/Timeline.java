package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.server.internal.Html;
import java.util.ArrayList;
import java.util.List;

/**
 * The run as a Gantt chart, as data the report's renderer ({@code report.js}) draws: one row per executed step
 * (from {@code start_ms} for {@code duration_ms}), then the calls packed into lanes so that calls that ran at
 * once sit on separate lanes. A call's failed attempts and the waits before its retries come with it, and the
 * time it waited for a slot of its tool's concurrency limit ({@code waited_ms}, drawn as a wait); a step
 * whose call was retried has them when the trace has no call list (a stored run). At most {@value #MAX_STEPS}
 * steps and {@value #MAX_CALLS} calls.
 *
 * <pre>{@code
 * {"end_ms": 812.5,
 *  "steps": [{"n": 1, "seq": 0, "type": "calling", "start_ms": 0, "duration_ms": 3.1, "failed": false, "attempts": []}],
 *  "calls": [{"seq": 0, "name": "vector_search", "start_ms": 0.2, "duration_ms": 2.9, "outcome": "answered",
 *             "lane": 0, "waited_ms": 0, "attempts": [{"attempt": 1, "duration_ms": 1, "waited_ms": 5, "error": "..."}]}],
 *  "more_steps": 0, "more_calls": 0}
 * }</pre>
 */
final class Timeline {

    static final int MAX_STEPS = 400;
    static final int MAX_CALLS = 1000;
    private static final int MAX_LANES = 60;
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Timeline() {}

    static ObjectNode of(JsonNode trace) {
        JsonNode steps = trace.path("steps");
        JsonNode calls = trace.path("calls");
        int stepRows = Math.min(steps.size(), MAX_STEPS);
        int callCount = Math.min(calls.size(), MAX_CALLS);
        double end = 1;
        ObjectNode timeline = JSON.objectNode();
        ArrayNode stepList = timeline.putArray("steps");
        for (int i = 0; i < stepRows; i++) {
            JsonNode step = steps.get(i);
            end = Math.max(end, start(step) + duration(step));
            ObjectNode row = stepList.addObject()
                    .put("n", i + 1)
                    .put("seq", step.path("seq_no").asInt())
                    .put("type", step.path("type").asText())
                    .put("start_ms", start(step))
                    .put("duration_ms", duration(step))
                    .put("failed", step.hasNonNull("error"));
            row.set("attempts", calls.isEmpty() ? attempts(step.path("inputs").path("attempts")) : JSON.arrayNode());
        }
        List<Integer> lanes = lanes(calls, callCount);
        ArrayNode callList = timeline.putArray("calls");
        for (int i = 0; i < callCount; i++) {
            JsonNode call = calls.get(i);
            end = Math.max(end, start(call) + duration(call));
            callList.addObject()
                    .put("seq", call.path("seq_no").asInt())
                    .put(
                            "name",
                            call.path("kind").asText().equals("condition")
                                    ? "condition"
                                    : call.path("tool").asText())
                    .put("start_ms", start(call))
                    .put("duration_ms", duration(call))
                    .put("outcome", call.path("outcome").asText())
                    .put("lane", lanes.get(i))
                    .put("waited_ms", Math.max(0, call.path("waited_ms").asDouble(0)))
                    .set("attempts", attempts(call.path("attempts")));
        }
        timeline.put("end_ms", end);
        timeline.put("more_steps", steps.size() - stepRows).put("more_calls", calls.size() - callCount);
        return timeline;
    }

    private static ArrayNode attempts(JsonNode attempts) {
        ArrayNode list = JSON.arrayNode();
        if (attempts.isArray()) {
            for (JsonNode attempt : attempts) {
                list.addObject()
                        .put("attempt", attempt.path("attempt").asInt())
                        .put(
                                "duration_ms",
                                Math.max(0, attempt.path("duration_ms").asDouble(0)))
                        .put("waited_ms", Math.max(0, attempt.path("waited_ms").asDouble(0)))
                        .put("error", Html.cut(attempt.path("error").asText(), 200));
            }
        }
        return list;
    }

    /** Greedy interval packing: each call goes to the first lane free at its start. */
    private static List<Integer> lanes(JsonNode calls, int count) {
        List<Double> laneEnds = new ArrayList<>();
        List<Integer> lanes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            double start = start(calls.get(i));
            int lane = 0;
            while (lane < laneEnds.size() && laneEnds.get(lane) > start) {
                lane++;
            }
            if (lane >= MAX_LANES) {
                lane = MAX_LANES - 1;
            }
            if (lane == laneEnds.size()) {
                laneEnds.add(0.0);
            }
            laneEnds.set(lane, start + duration(calls.get(i)));
            lanes.add(lane);
        }
        return lanes;
    }

    private static double start(JsonNode item) {
        return Math.max(0, item.path("start_ms").asDouble(0));
    }

    private static double duration(JsonNode item) {
        return Math.max(0, item.path("duration_ms").asDouble(0));
    }
}
