package dev.planvm.server.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The HTML report of a real run, read as text: its graph, timeline and steps, escaping, and no external fetch. */
class HtmlReportTest {

    private static RunResult result;
    private static String html;

    @BeforeAll
    static void render() {
        result = ReportRuns.run();
        html = HtmlReport.render(Reports.of(result.trace(), ReportRuns.planDocument(), "report of report.json"));
    }

    @Test
    void the_flow_graph_has_a_node_per_instruction_and_edges_with_how_often_they_were_taken() {
        assertThat(count("<g class=\"node ")).isEqualTo(8);
        assertThat(html)
                .contains("<g class=\"edge jump taken\" data-from=\"5\" data-to=\"4\" data-count=\"2\">")
                .contains("<g class=\"edge jump taken\" data-from=\"5\" data-to=\"6\" data-count=\"1\">")
                .contains("<g class=\"edge seq taken\" data-from=\"4\" data-to=\"5\" data-count=\"3\">")
                .contains("<g class=\"edge data\" data-from=\"0\" data-to=\"2\">");
        assertThat(html).contains("class=\"node ran\" data-seq=\"7\"");
    }

    @Test
    void the_timeline_shows_every_step_the_calls_overlapping_and_the_retries_with_their_waits() {
        assertThat(count("class=\"bar step\"")).isEqualTo(result.steps());
        assertThat(count("class=\"bar call\""))
                .isEqualTo(result.trace().path("calls").size());
        assertThat(count("class=\"bar attempt\"")).isEqualTo(2);
        assertThat(count("class=\"bar wait\"")).isEqualTo(2);
        JsonNode calls = result.trace().path("calls");
        double firstEnd = calls.get(0).path("start_ms").asDouble()
                + calls.get(0).path("duration_ms").asDouble();
        assertThat(calls.get(1).path("start_ms").asDouble())
                .as("the two lookups overlapped")
                .isLessThan(firstEnd);
        List<Double> callRows = rows("bar call");
        assertThat(callRows.get(0))
                .as("overlapping calls sit on different lanes")
                .isNotEqualTo(callRows.get(1));
    }

    @Test
    void each_step_has_its_inputs_writes_and_error_in_an_expandable_section() {
        assertThat(count("<details class=\"step")).isEqualTo(result.steps());
        assertThat(html)
                .contains("<details class=\"step\" id=\"step-1\" data-seq=\"0\"><summary>step 1 · seq_no 0 · calling");
        assertThat(html).contains("&quot;attempts&quot;");
    }

    @Test
    void hostile_values_are_escaped_and_nothing_is_fetched_from_elsewhere() {
        assertThat(html)
                .doesNotContain(ReportRuns.HOSTILE)
                .doesNotContain("<img")
                .contains("&lt;/script&gt;&lt;script&gt;");
        assertThat(count("<script>")).isEqualTo(1);
        assertThat(html).contains("Content-Security-Policy\" content=\"default-src 'none'");
        Matcher urls = Pattern.compile("(src|href)\\s*=\\s*\"?(https?:)?//", Pattern.CASE_INSENSITIVE)
                .matcher(html);
        assertThat(urls.find()).as("no src or href to another place").isFalse();
        assertThat(html).doesNotContain("url(http").doesNotContain("@import");
    }

    @Test
    void a_failed_step_and_a_waiting_call_are_marked_in_the_graph() {
        ObjectNode trace = result.trace().deepCopy();
        ((ObjectNode) ((ArrayNode) trace.path("steps")).get(2)).put("error", "tool 'flaky' failed: boom");
        trace.putObject("pending").put("seq_no", 6).put("tool", "hostile").putObject("params");
        String page = HtmlReport.render(Reports.of(trace, ReportRuns.planDocument(), "t"));
        assertThat(page)
                .contains("class=\"node failed\" data-seq=\"2\"")
                .contains("class=\"node waiting\" data-seq=\"6\"")
                .contains("<details class=\"step failed\" id=\"step-3\"");
    }

    @Test
    void a_trace_without_its_plan_draws_the_steps_it_saw_and_huge_traces_stay_bounded() {
        ObjectNode trace = new ObjectMapper().createObjectNode().put("status", "succeeded");
        ArrayNode steps = trace.putArray("steps");
        for (int i = 0; i < 50_000; i++) {
            steps.addObject()
                    .put("seq_no", i % 3)
                    .put("type", "assign")
                    .put("start_ms", i)
                    .put("duration_ms", 0.5)
                    .putObject("inputs")
                    .put("big", "x".repeat(i == 0 ? 100_000 : 10));
        }
        long start = System.nanoTime();
        String page = HtmlReport.render(Reports.of(trace, null, "big"));
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms to render").isLessThan(5_000);
        assertThat(page.length()).isLessThan(8_000_000);
        assertThat(page)
                .contains("48000 more steps are not listed.")
                .contains("49600 steps and 0 calls are not drawn.")
                .containsPattern("… \\(800[0-9]{2} more characters\\)");
        assertThat(page.split("<g class=\"node ", -1).length - 1).isEqualTo(3);
    }

    private static int count(String needle) {
        return html.split(Pattern.quote(needle), -1).length - 1;
    }

    private static List<Double> rows(String cls) {
        Matcher bar = Pattern.compile("<rect class=\"" + cls + "\"[^>]* y=\"([0-9.]+)\"")
                .matcher(html);
        List<Double> ys = new java.util.ArrayList<>();
        while (bar.find()) {
            ys.add(Double.parseDouble(bar.group(1)));
        }
        return ys;
    }
}
