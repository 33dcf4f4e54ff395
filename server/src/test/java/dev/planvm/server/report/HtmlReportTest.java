package dev.planvm.server.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.server.internal.UiAssets;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The report of a real run, read as data and as text: the model the renderer draws (graph, timeline, steps,
 * bounds) and the page around it (escaping, a CSP that allows only its own script and style, no external fetch).
 * How it is drawn is checked in Chromium ({@code ReportBrowserTest}, {@code RunBrowserTest}).
 */
class HtmlReportTest {

    private static RunResult result;
    private static ObjectNode model;
    private static String html;

    @BeforeAll
    static void render() {
        result = ReportRuns.run();
        ReportInput input = Reports.of(result.trace(), ReportRuns.planDocument(), "report of report.json");
        model = ReportModel.of(input);
        html = HtmlReport.render(input);
    }

    @Test
    void the_flow_graph_has_a_node_per_instruction_and_edges_with_how_often_they_were_taken() {
        assertThat(model.at("/graph/nodes").size()).isEqualTo(8);
        assertThat(edges())
                .contains("jump 5>4 ×2", "jump 5>6 ×1", "seq 4>5 ×3", "data 0>2 a")
                .doesNotContain("seq 5>6 ×0");
        assertThat(model.at("/graph/nodes/7/outcome").asText()).isEqualTo("ran");
    }

    @Test
    void the_timeline_shows_every_step_the_calls_overlapping_and_the_retries_with_their_waits() {
        JsonNode timeline = model.path("timeline");
        assertThat(timeline.path("steps").size()).isEqualTo(result.steps());
        JsonNode calls = timeline.path("calls");
        assertThat(calls.size()).isEqualTo(result.trace().path("calls").size());
        List<JsonNode> attempts = new ArrayList<>();
        calls.forEach(call -> call.path("attempts").forEach(attempts::add));
        assertThat(attempts).hasSize(2).allMatch(a -> a.path("waited_ms").asDouble() > 0);
        assertThat(calls.get(1).path("start_ms").asDouble())
                .as("the two lookups overlapped")
                .isLessThan(calls.get(0).path("start_ms").asDouble()
                        + calls.get(0).path("duration_ms").asDouble());
        assertThat(calls.get(0).path("lane").asInt())
                .as("overlapping calls sit on different lanes")
                .isNotEqualTo(calls.get(1).path("lane").asInt());
        // the timeline covers the lookups' 40 ms and every call to its end (the retries' waits are jittered)
        assertThat(timeline.path("end_ms").asDouble()).isGreaterThanOrEqualTo(40);
        calls.forEach(call -> assertThat(timeline.path("end_ms").asDouble())
                .as(call.toString())
                .isGreaterThanOrEqualTo(call.path("start_ms").asDouble()
                        + call.path("duration_ms").asDouble()
                        - 1));
    }

    @Test
    void each_step_has_its_inputs_writes_and_error_ready_to_show() {
        JsonNode steps = model.path("steps");
        assertThat(steps.size()).isEqualTo(result.steps());
        assertThat(steps.get(0).path("seq").asInt()).isZero();
        assertThat(steps.get(0).path("type").asText()).isEqualTo("calling");
        assertThat(steps.get(2).path("inputs").asText()).contains("\"attempts\"");
        assertThat(steps.get(0).path("writes").asText()).contains("\"a\"");
    }

    @Test
    void a_text_result_stays_text_so_the_page_can_show_it_as_text() {
        assertThat(model.at("/summary/result").isTextual()).isTrue();
        assertThat(model.at("/summary/result").asText()).startsWith("abf</pre>");
    }

    @Test
    void hostile_values_cannot_end_the_data_element_and_nothing_is_fetched_from_elsewhere() {
        assertThat(html)
                .doesNotContain(ReportRuns.HOSTILE)
                .doesNotContain("<img")
                .doesNotContain("</pre>");
        assertThat(html).contains("\\u003c/script\\u003e\\u003cscript\\u003e");
        assertThat(count(html, "<script")).isEqualTo(2);
        assertThat(count(html, "</script>")).isEqualTo(2);
        Matcher urls = Pattern.compile("(src|href)\\s*=\\s*\"?(https?:)?//", Pattern.CASE_INSENSITIVE)
                .matcher(html);
        assertThat(urls.find()).as("no src or href to another place").isFalse();
        assertThat(html).doesNotContain("url(http").doesNotContain("@import");
    }

    @Test
    void the_content_security_policy_allows_exactly_the_renderer_and_its_stylesheet() {
        assertThat(html)
                .contains("Content-Security-Policy\" content=\"default-src 'none'; style-src "
                        + UiAssets.cspHash(UiAssets.text("report.css")) + "; script-src "
                        + UiAssets.cspHash(UiAssets.text("report.js")) + ";")
                .doesNotContain("unsafe-inline");
        assertThat(html).contains("<script>" + UiAssets.text("report.js") + "</script>");
    }

    @Test
    void a_failed_step_and_a_waiting_call_are_marked_in_the_graph() {
        ObjectNode trace = result.trace().deepCopy();
        ((ObjectNode) ((ArrayNode) trace.path("steps")).get(2)).put("error", "tool 'flaky' failed: boom");
        trace.putObject("pending").put("seq_no", 6).put("tool", "hostile").putObject("params");
        ObjectNode marked = ReportModel.of(Reports.of(trace, ReportRuns.planDocument(), "t"));
        assertThat(marked.at("/graph/nodes/2/outcome").asText()).isEqualTo("failed");
        assertThat(marked.at("/graph/nodes/6/outcome").asText()).isEqualTo("waiting");
        assertThat(marked.at("/steps/2/failed").asBoolean()).isTrue();
        assertThat(marked.at("/steps/2/error").asText()).isEqualTo("tool 'flaky' failed: boom");
        assertThat(marked.at("/summary/pending/tool").asText()).isEqualTo("hostile");
    }

    @Test
    void a_run_that_ends_in_use_is_marked_in_the_summary() {
        assertThat(model.at("/summary/use").isMissingNode()).isTrue();
        ObjectNode trace = ((ObjectNode) result.trace().deepCopy()).put("use", true);
        ObjectNode marked = ReportModel.of(Reports.of(trace, ReportRuns.planDocument(), "t"));
        assertThat(marked.at("/summary/use").asBoolean()).isTrue();
    }

    @Test
    void a_trace_without_its_plan_draws_the_steps_it_saw_and_huge_traces_stay_bounded() {
        ObjectNode trace = new ObjectMapper().createObjectNode().put("status", "succeeded");
        trace.set("result", TextNode.valueOf("r".repeat(50_000)));
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
        ReportInput input = Reports.of(trace, null, "big");
        ObjectNode big = ReportModel.of(input);
        String page = HtmlReport.render(input);
        assertThat(page.length()).isLessThan(8_000_000);
        assertThat(big.path("steps").size()).isEqualTo(ReportModel.MAX_STEPS);
        assertThat(big.path("more_steps").asInt()).isEqualTo(48_000);
        assertThat(big.at("/timeline/steps").size()).isEqualTo(Timeline.MAX_STEPS);
        assertThat(big.at("/timeline/more_steps").asInt()).isEqualTo(49_600);
        assertThat(big.at("/steps/0/inputs").asText()).containsPattern("… \\(800[0-9]{2} more characters\\)");
        assertThat(big.at("/summary/result").asText()).endsWith("(30000 more characters)");
        assertThat(big.at("/graph/nodes").size()).isEqualTo(3);
    }

    private static List<String> edges() {
        List<String> edges = new ArrayList<>();
        model.at("/graph/edges")
                .forEach(e ->
                        edges.add(e.path("kind").asText() + " " + e.path("from").asInt() + ">"
                                + e.path("to").asInt() + " "
                                + (e.has("variable")
                                        ? e.path("variable").asText()
                                        : "×" + e.path("count").asInt())));
        return edges;
    }

    private static int count(String text, String needle) {
        return text.split(Pattern.quote(needle), -1).length - 1;
    }
}
