package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.internal.Html;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The run as an SVG Gantt chart: one row per executed step (its bar from {@code start_ms} for
 * {@code duration_ms}), then the calls packed into lanes so that calls that ran at once sit on separate
 * lanes and overlap in time. A call's failed attempts are drawn red and the waits before its retries
 * hatched; a step whose call was retried shows the same inside its bar when the trace has no call list
 * (a stored run). At most {@value #MAX_STEPS} steps and {@value #MAX_CALLS} calls are drawn.
 */
final class Timeline {

    static final int MAX_STEPS = 400;
    static final int MAX_CALLS = 1000;
    private static final int LABELS = 150;
    private static final int WIDTH = 780;
    private static final int ROW = 18;
    private static final int MAX_LANES = 60;

    private Timeline() {}

    static String svg(JsonNode trace) {
        JsonNode steps = trace.path("steps");
        JsonNode calls = trace.path("calls");
        int stepRows = Math.min(steps.size(), MAX_STEPS);
        int callCount = Math.min(calls.size(), MAX_CALLS);
        double end = 1;
        for (int i = 0; i < stepRows; i++) {
            end = Math.max(end, start(steps.get(i)) + duration(steps.get(i)));
        }
        for (int i = 0; i < callCount; i++) {
            end = Math.max(end, start(calls.get(i)) + duration(calls.get(i)));
        }
        List<Integer> lanes = lanes(calls, callCount);
        int laneCount = lanes.stream().mapToInt(l -> l + 1).max().orElse(0);
        int height = 30 + (stepRows + laneCount + (laneCount > 0 ? 1 : 0)) * ROW + 10;
        double scale = (WIDTH - LABELS - 10) / end;
        StringBuilder svg = new StringBuilder(4096);
        svg.append("<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 ")
                .append(WIDTH)
                .append(' ')
                .append(height)
                .append("\" role=\"img\" aria-label=\"timeline\"><defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
                        + "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
                        + "stroke=\"#999\" stroke-width=\"3\"/></pattern></defs>");
        axis(svg, end, scale, height);
        for (int i = 0; i < stepRows; i++) {
            JsonNode step = steps.get(i);
            int y = 26 + i * ROW;
            String label = "step " + (i + 1) + " · seq_no "
                    + step.path("seq_no").asInt() + " " + step.path("type").asText();
            svg.append("<text class=\"row\" x=\"4\" y=\"")
                    .append(y + 12)
                    .append("\">")
                    .append(Html.escape(label))
                    .append("</text>");
            String kind = step.hasNonNull("error") ? "bar step failed" : "bar step";
            bar(
                    svg,
                    kind,
                    start(step),
                    duration(step),
                    y,
                    scale,
                    "step-" + (i + 1),
                    label + ": " + fmt(duration(step)) + " ms");
            if (calls.isEmpty() && step.path("inputs").path("attempts").isArray()) {
                attempts(svg, step.path("inputs").path("attempts"), start(step), y, scale, "step-" + (i + 1));
            }
        }
        if (laneCount > 0) {
            int y0 = 26 + stepRows * ROW + ROW;
            svg.append("<text class=\"row\" x=\"4\" y=\"").append(y0 - 4).append("\">calls</text>");
            for (int i = 0; i < callCount; i++) {
                JsonNode call = calls.get(i);
                int y = y0 + lanes.get(i) * ROW;
                String name = call.path("kind").asText().equals("condition")
                        ? "condition"
                        : call.path("tool").asText();
                String label = "seq_no " + call.path("seq_no").asInt() + " " + name + ": " + fmt(duration(call))
                        + " ms, " + call.path("outcome").asText();
                double t = attempts(svg, call.path("attempts"), start(call), y, scale, "call-" + i);
                double last = start(call) + duration(call) - t;
                bar(
                        svg,
                        call.path("outcome").asText().equals("failed") ? "bar call failed" : "bar call",
                        t,
                        Math.max(0, last),
                        y,
                        scale,
                        "seq-" + call.path("seq_no").asInt(),
                        label);
            }
        }
        svg.append("</svg>");
        if (steps.size() > stepRows || calls.size() > callCount) {
            svg.append("<p class=\"note\">")
                    .append(steps.size() - stepRows)
                    .append(" steps and ")
                    .append(calls.size() - callCount)
                    .append(" calls are not drawn.</p>");
        }
        return svg.toString();
    }

    /** Draws the failed attempts and waits of a call starting at {@code t}; returns when its last attempt started. */
    private static double attempts(StringBuilder svg, JsonNode attempts, double t, int y, double scale, String target) {
        if (!attempts.isArray()) {
            return t;
        }
        for (JsonNode attempt : attempts) {
            double took = attempt.path("duration_ms").asDouble(0);
            bar(
                    svg,
                    "bar attempt",
                    t,
                    took,
                    y,
                    scale,
                    target,
                    "attempt " + attempt.path("attempt").asInt() + " failed: "
                            + Html.cut(attempt.path("error").asText(), 200));
            t += took;
            double waited = attempt.path("waited_ms").asDouble(0);
            if (waited > 0) {
                bar(svg, "bar wait", t, waited, y, scale, target, "waited " + fmt(waited) + " ms before retrying");
                t += waited;
            }
        }
        return t;
    }

    private static void bar(
            StringBuilder svg,
            String kind,
            double start,
            double duration,
            int y,
            double scale,
            String target,
            String title) {
        double x = LABELS + start * scale;
        double w = Math.max(1.5, duration * scale);
        svg.append("<rect class=\"")
                .append(kind)
                .append("\" data-target=\"")
                .append(target)
                .append("\" x=\"")
                .append(fmt(x))
                .append("\" y=\"")
                .append(y + 2)
                .append("\" width=\"")
                .append(fmt(w))
                .append("\" height=\"")
                .append(ROW - 5)
                .append("\"")
                .append(kind.contains("wait") ? " fill=\"url(#hatch)\"" : "")
                .append("><title>")
                .append(Html.escape(title))
                .append("</title></rect>");
    }

    private static void axis(StringBuilder svg, double end, double scale, int height) {
        double step = niceStep(end / 6);
        for (double t = 0; t <= end; t += step) {
            double x = LABELS + t * scale;
            svg.append("<line class=\"tick\" x1=\"")
                    .append(fmt(x))
                    .append("\" y1=\"14\" x2=\"")
                    .append(fmt(x))
                    .append("\" y2=\"")
                    .append(height - 6)
                    .append("\"/><text class=\"tick\" x=\"")
                    .append(fmt(x + 2))
                    .append("\" y=\"12\">")
                    .append(fmt(t))
                    .append(" ms</text>");
        }
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

    private static double niceStep(double raw) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 0.001))));
        double[] steps = {1, 2, 5, 10};
        for (double s : steps) {
            if (s * magnitude >= raw) {
                return s * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static double start(JsonNode item) {
        return Math.max(0, item.path("start_ms").asDouble(0));
    }

    private static double duration(JsonNode item) {
        return Math.max(0, item.path("duration_ms").asDouble(0));
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
