package dev.planvm.server.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.server.internal.Html;
import dev.planvm.server.internal.Json;
import dev.planvm.server.internal.UiAssets;
import java.util.List;

/**
 * A run as one self-contained HTML page: its report model ({@link Reports#model}) inline as JSON and the report's renderer
 * ({@code report.js}, the one the run browser of {@code planvm serve} uses too) with its stylesheet, nothing
 * fetched from elsewhere. A Content-Security-Policy allows exactly that script and that stylesheet (by hash) and
 * nothing else. Sections: the run's summary (a text result as text, Markdown rendered safely), its lineage, the
 * differences from an expectation (a failed regression), the plan as a flow graph, a timeline of steps and calls,
 * and every step with its inputs, writes and error (expandable). Every value comes from the trace, whose secrets
 * the VM redacted. A plan-tool step shows its child run nested ({@code details.child-run}), with the child's
 * own flow graph ({@code svg.flow-graph}), timeline ({@code svg.timeline}) and steps when its report is embedded.
 * One entry method: {@link #render}.
 *
 * <p>Once its script ran: {@code svg#flow-graph g.node[data-seq]}, {@code svg#timeline rect.bar},
 * {@code details.step[data-seq]}; clicking a node or a bar opens its step; the body has {@code data-ready="1"},
 * {@code data-nodes} and {@code data-bars}.
 */
public final class HtmlReport {

    private HtmlReport() {}

    /** The page. */
    public static String render(ReportInput input) {
        return render(input, List.of());
    }

    /**
     * {@link #render(ReportInput)} with the child runs its plan-tool calls started: each is named under its step,
     * and the reports at hand are embedded ({@code child_reports} of the model), so a step's nested child block
     * opens onto the child's summary, flow graph, timeline and steps. A child without its report is shown by its id
     * only.
     */
    public static String render(ReportInput input, List<ChildReport> children) {
        String script = UiAssets.text("report.js");
        String css = UiAssets.text("report.css");
        ObjectNode model = ReportModel.withChildren(ReportModel.of(input), children);
        ObjectNode embedded = model.putObject("child_reports");
        for (ChildReport child : children) {
            if (child.report() != null) {
                embedded.set(child.id(), ReportModel.of(child.report()));
            }
        }
        String data = scriptSafe(Json.write(model));
        return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
                + UiAssets.cspHash(css) + "; script-src " + UiAssets.cspHash(script)
                + "; img-src data:; base-uri 'none'; form-action 'none'\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + "<meta name=\"color-scheme\" content=\"light dark\">"
                + "<title>" + Html.escape(input.title()) + "</title><style>" + css + "</style></head>"
                + "<body data-ready=\"0\"><noscript><p>This report is drawn by its script: open it with JavaScript on."
                + "</p></noscript><main id=\"report\"></main>"
                + "<script type=\"application/json\" id=\"report-data\">" + data + "</script>"
                + "<script>" + script + "</script></body></html>\n";
    }

    /** JSON that cannot end the {@code <script>} element it sits in, nor open a comment there. */
    static String scriptSafe(String json) {
        StringBuilder out = new StringBuilder(json.length() + 64);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> out.append("\\u003c");
                case '>' -> out.append("\\u003e");
                case '&' -> out.append("\\u0026");
                case '\u2028' -> out.append("\\u2028");
                case '\u2029' -> out.append("\\u2029");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
