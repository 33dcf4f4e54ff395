package dev.planvm.server.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.server.internal.Html;
import java.util.Locale;

/**
 * A run as one self-contained HTML page: no external fetch (a Content-Security-Policy forbids any), inline
 * CSS, SVG and a little script. Sections: the run's summary, its lineage, the differences from an
 * expectation (a failed regression), the plan as a flow graph ({@link FlowGraph}), a timeline of steps and
 * calls ({@link Timeline}), and every step with its inputs, writes and error (expandable). Every value comes
 * from the trace, whose secrets the VM redacted; long values are cut. One entry method: {@link #render}.
 *
 * <p>In the page: {@code svg#flow-graph g.node[data-seq]}, {@code svg#timeline rect.bar},
 * {@code details.step[data-seq]}; clicking a node or a bar opens its step. Once its script ran, the body
 * has {@code data-ready="1"}.
 */
public final class HtmlReport {

    /** The longest value shown in full in a step's details. */
    static final int MAX_VALUE_CHARS = 20_000;
    /** Steps listed with their details. */
    static final int MAX_STEPS = 2000;

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private HtmlReport() {}

    /** The page. */
    public static String render(ReportInput input) {
        JsonNode trace = input.trace();
        StringBuilder html = new StringBuilder(16_384);
        html.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append(
                        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
                                + "script-src 'unsafe-inline'; img-src data:\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>")
                .append(Html.escape(input.title()))
                .append("</title><style>")
                .append(Styles.CSS)
                .append("</style></head><body data-ready=\"0\">");
        html.append("<header><h1>").append(Html.escape(input.title())).append("</h1>");
        summary(html, trace);
        html.append("</header>");
        if (!input.lineage().isEmpty()) {
            html.append("<section id=\"lineage\"><h2>Lineage</h2><ol>");
            input.lineage()
                    .forEach(line ->
                            html.append("<li>").append(Html.escape(line)).append("</li>"));
            html.append("</ol></section>");
        }
        if (!input.diff().isEmpty()) {
            html.append("<section id=\"diff\"><h2>Differences from the expectation</h2><pre class=\"diff\">");
            for (String line : input.diff()) {
                String kind = line.stripLeading().startsWith("-")
                        ? "del"
                        : line.stripLeading().startsWith("+") ? "ins" : "ctx";
                html.append("<span class=\"")
                        .append(kind)
                        .append("\">")
                        .append(Html.escape(Html.cut(line, 2000)))
                        .append("</span>\n");
            }
            html.append("</pre></section>");
        }
        html.append("<section id=\"graph\"><h2>Flow</h2><p class=\"legend\"><span class=\"key seq\">sequential</span> "
                        + "<span class=\"key jump\">jump</span> <span class=\"key data\">data (${} reference)</span> "
                        + "×N: times taken</p>")
                .append(FlowGraph.svg(input.plan(), trace))
                .append("</section>");
        html.append(
                        "<section id=\"timeline-section\"><h2>Timeline</h2><p class=\"legend\"><span class=\"key step\">step</span> "
                                + "<span class=\"key call\">call</span> <span class=\"key attempt\">failed attempt</span> "
                                + "<span class=\"key wait\">wait before a retry</span></p>")
                .append(Timeline.svg(trace))
                .append("</section>");
        steps(html, trace);
        html.append("<script>").append(Styles.SCRIPT).append("</script></body></html>\n");
        return html.toString();
    }

    private static void summary(StringBuilder html, JsonNode trace) {
        html.append("<dl class=\"summary\">");
        item(
                html,
                "status",
                trace.path("status").asText("?"),
                "status " + trace.path("status").asText(""));
        item(html, "plan", trace.path("plan").path("source").asText("?"), null);
        item(html, "mode", trace.path("mode").asText("?"), null);
        item(html, "started", trace.path("started").asText(""), null);
        item(html, "finished", trace.path("finished").asText(""), null);
        item(html, "steps", String.valueOf(trace.path("steps").size()), null);
        JsonNode error = trace.path("error");
        if (error.isObject()) {
            String where = error.hasNonNull("seq_no")
                    ? "seq_no " + error.path("seq_no").asInt() + " ("
                            + error.path("type").asText() + "): "
                    : "";
            item(html, "error", where + error.path("message").asText(), "error");
        }
        if (trace.hasNonNull("pending")) {
            JsonNode pending = trace.path("pending");
            item(
                    html,
                    "waiting for",
                    "approval of seq_no " + pending.path("seq_no").asInt() + " calling "
                            + pending.path("tool").asText() + " with "
                            + Html.cut(pending.path("params").toString(), 500),
                    "waiting");
        }
        html.append("<dt>result</dt><dd><pre>")
                .append(Html.escape(pretty(trace.path("result"))))
                .append("</pre></dd>");
        html.append("</dl>");
    }

    private static void item(StringBuilder html, String term, String value, String cls) {
        html.append("<dt>")
                .append(term)
                .append("</dt><dd")
                .append(cls == null ? "" : " class=\"" + Html.escape(cls) + "\"")
                .append('>')
                .append(Html.escape(Html.cut(value, 2000)))
                .append("</dd>");
    }

    private static void steps(StringBuilder html, JsonNode trace) {
        JsonNode steps = trace.path("steps");
        html.append("<section id=\"steps\"><h2>Steps</h2>");
        int shown = Math.min(steps.size(), MAX_STEPS);
        for (int i = 0; i < shown; i++) {
            JsonNode step = steps.get(i);
            boolean failed = step.hasNonNull("error");
            html.append("<details class=\"step")
                    .append(failed ? " failed" : "")
                    .append("\" id=\"step-")
                    .append(i + 1)
                    .append("\" data-seq=\"")
                    .append(step.path("seq_no").asInt())
                    .append("\"><summary>")
                    .append(Html.escape(String.format(
                            Locale.ROOT,
                            "step %d · seq_no %d · %s · %.1f ms%s",
                            i + 1,
                            step.path("seq_no").asInt(),
                            step.path("type").asText(),
                            step.path("duration_ms").asDouble(),
                            failed ? " · failed" : "")))
                    .append("</summary>");
            section(html, "inputs", step.path("inputs"));
            section(html, "writes", step.path("writes"));
            if (step.has("jump")) {
                section(html, "jump", step.path("jump"));
            }
            if (failed) {
                html.append("<h4>error</h4><pre class=\"error\">")
                        .append(Html.escape(Html.cut(step.path("error").asText(), MAX_VALUE_CHARS)))
                        .append("</pre>");
            }
            html.append("</details>");
        }
        if (steps.size() > shown) {
            html.append("<p class=\"note\">").append(steps.size() - shown).append(" more steps are not listed.</p>");
        }
        html.append("</section>");
    }

    private static void section(StringBuilder html, String name, JsonNode value) {
        if (value.isMissingNode() || (value.isContainerNode() && value.isEmpty())) {
            return;
        }
        html.append("<h4>")
                .append(name)
                .append("</h4><pre>")
                .append(Html.escape(Html.cut(pretty(value), MAX_VALUE_CHARS)))
                .append("</pre>");
    }

    private static String pretty(JsonNode value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }
}
