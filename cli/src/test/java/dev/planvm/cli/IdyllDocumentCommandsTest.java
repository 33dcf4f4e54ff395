package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.TestMcpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm run DOC.idyll} (seed 003's documents) against a real MCP server named {@code demo}:
 * {@code demo:echo} is its tool {@code echo}; every block runs in document order, a failing block
 * (a tool error, a function that is no tool, params that do not fit) records its error and the others
 * run; stdout is the execution report; exit 0, 1 or 2 as the documentation says; {@code --block},
 * {@code --write-document}, recording and replaying, validate, compile, the trace and durable runs.
 */
class IdyllDocumentCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String DOCUMENT = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document id="checks">
              <h1>Checks</h1>
              <p>Each block calls a tool of the MCP server <code>demo</code>.</p>
              <fncall id="echo" idyll-fn="demo:echo">
                <params><![CDATA[{"message": "hi"}]]></params>
                <content>Say <strong>hi</strong></content>
              </fncall>
              <fncall id="fail" idyll-fn="demo:fail"><params>{"key": "k1"}</params></fncall>
              <fncall id="nope" idyll-fn="demo:nope"/>
              <fncall id="misfit" idyll-fn="demo:lookup"><params>{"key": 5}</params></fncall>
              <fncall id="lookup" idyll-fn="demo--lookup"><params>{"key": "a"}</params></fncall>
            </document>
            """;

    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    /** The MCP server demo, on Streamable HTTP for the whole class: no server process per command. */
    private static TestMcpServer.Http demo;

    @BeforeAll
    static void startDemo() throws Exception {
        demo = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null));
    }

    @AfterAll
    static void stopDemo() throws Exception {
        demo.close();
    }

    private Path config() throws Exception {
        ObjectNode config = JSON.createObjectNode();
        config.putObject("mcpServers").putObject("demo").put("url", demo.url());
        return write("planvm.json", config.toString());
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    private CliRun run(Path document, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", document.toString(), "--config", config().toString()));
        args.addAll(List.of(more));
        return planvm(args.toArray(String[]::new));
    }

    @Test
    void every_block_runs_in_order_and_a_failing_block_records_its_error_and_exits_1() throws Exception {
        CliRun run = run(write("checks.idyll", DOCUMENT));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        JsonNode report = JSON.readTree(run.out());
        JsonNode nodes = report.path("nodes");
        assertThat(nodes).hasSize(5);
        assertThat(nodes.findValuesAsText("id")).containsExactly("echo", "fail", "nope", "misfit", "lookup");
        assertThat(nodes.get(0).path("success").asBoolean()).isTrue();
        assertThat(nodes.get(0).path("fn").asText()).isEqualTo("demo:echo");
        assertThat(nodes.get(0).path("data").toString())
                .as("the echo tool answers its arguments: the params and the content as text")
                .contains("\"message\":\"hi\"")
                .contains("\"content\":\"Say hi\"");
        assertThat(nodes.get(1).path("error").path("message").asText()).contains("no such record: k1");
        assertThat(nodes.get(2).path("error").path("message").asText()).isEqualTo("Function not found: demo:nope");
        assertThat(nodes.get(3).path("success").asBoolean()).isFalse();
        assertThat(nodes.get(3).path("error").path("message").asText()).contains("key");
        assertThat(nodes.get(4).path("success").asBoolean()).isTrue();
        assertThat(nodes.get(4).path("data").path("value").asText()).isEqualTo("v-a");
        for (JsonNode node : nodes) {
            assertThat(node.path("duration_ms").isNumber()).isTrue();
        }
        assertThat(report.path("metadata").path("nodesExecuted").asInt()).isEqualTo(5);
        assertThat(report.path("metadata").path("nodesSucceeded").asInt()).isEqualTo(2);
        assertThat(report.path("metadata").path("nodesFailed").asInt()).isEqualTo(3);
        assertThat(report.path("metadata").path("totalDuration_ms").asDouble()).isPositive();
        assertThat(run.err()).contains("3 blocks failed").doesNotContain("Exception");
    }

    @Test
    void a_document_whose_blocks_all_succeed_exits_0() throws Exception {
        Path doc = write(
                "ok.xml",
                "<document><fncall idyll-fn=\"demo:lookup\"><params>{\"key\": \"b\"}</params>"
                        + "</fncall></document>");
        CliRun run = run(doc);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(JSON.readTree(run.out()).path("nodes").get(0).path("id").asText())
                .isEqualTo("block-1");
    }

    @Test
    void kebab_case_is_refused_at_load_with_its_line_and_nothing_runs() throws Exception {
        Path doc = write(
                "kebab.idyll",
                "<document>\n  <fncall idyll-fn=\"demo:lookup\"><params>{\"key\": \"b\"}</params></fncall>\n"
                        + "  <fncall idyll-fn=\"ai:analyze-text\"/>\n</document>\n");
        CliRun run = run(doc);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .contains("kebab.idyll: line 3, column 3: 'ai:analyze-text' is not a function name")
                .contains("did you mean 'ai:analyzeText'?")
                .doesNotContain("Exception");
    }

    @Test
    void a_document_with_a_dtd_is_refused_and_no_entity_is_read() throws Exception {
        Path secret = write("secret.txt", "TOP SECRET");
        Path doc = write(
                "xxe.xml",
                "<?xml version=\"1.0\"?>\n<!DOCTYPE document [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>\n"
                        + "<document><fncall idyll-fn=\"demo:echo\"><content>&x;</content></fncall></document>\n");
        CliRun run = run(doc);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .contains("line 2, column 1: a <!DOCTYPE> is not allowed")
                .doesNotContain("TOP SECRET");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void block_runs_one_block_and_an_unknown_id_is_refused() throws Exception {
        Path doc = write("checks.idyll", DOCUMENT);
        CliRun one = run(doc, "--block", "lookup");
        assertThat(one.exitCode()).as(one.err()).isZero();
        JsonNode report = JSON.readTree(one.out());
        assertThat(report.path("nodes")).hasSize(1);
        assertThat(report.path("nodes").get(0).path("id").asText()).isEqualTo("lookup");
        assertThat(report.path("metadata").path("nodesExecuted").asInt()).isEqualTo(1);

        CliRun unknown = run(doc, "--block", "lookpu");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err())
                .contains("the document has no block 'lookpu'; its blocks: echo, fail, nope, misfit, lookup");
        assertThat(unknown.out()).isEmpty();
    }

    @Test
    void write_document_writes_a_copy_with_results_and_never_changes_the_document() throws Exception {
        Path doc = write("checks.idyll", DOCUMENT);
        Path out = dir.resolve("checks.out.xml");
        CliRun run = run(doc, "--write-document", out.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(Files.readString(doc)).isEqualTo(DOCUMENT);
        String copy = Files.readString(out);
        assertThat(copy)
                .contains("<fncall id=\"nope\" idyll-fn=\"demo:nope\"><result><![CDATA[{\"success\":false,"
                        + "\"error\":{\"message\":\"Function not found: demo:nope\"}}]]></result></fncall>")
                .containsPattern("<result><!\\[CDATA\\[\\{[^<]*\"value\":\"v-a\"[^<]*}]]></result>");
        assertThat(copy.replaceAll("\\s*<result><!\\[CDATA\\[.*?]]></result>", "")
                        .replace("\"></fncall>", "\"/>"))
                .as("only results were added")
                .isEqualTo(DOCUMENT);

        Path invalid = write("bad.idyll", "<document><fncall idyll-fn=\"a-b\"/></document>");
        Path notWritten = dir.resolve("bad.out.xml");
        CliRun refused = run(invalid, "--write-document", notWritten.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(notWritten).doesNotExist();
    }

    @Test
    void a_recorded_run_replays_to_the_same_report_without_the_server() throws Exception {
        Path doc = write("checks.idyll", DOCUMENT);
        Path cassette = dir.resolve("checks.cassette.json");
        CliRun recorded = run(doc, "--record", cassette.toString(), "--no-store");
        assertThat(recorded.exitCode()).as(recorded.err()).isEqualTo(1);
        CliRun replayed = planvm("run", doc.toString(), "--replay", cassette.toString(), "--no-store");
        assertThat(replayed.exitCode()).as(replayed.err()).isEqualTo(1);
        assertThat(withoutTimes(JSON.readTree(replayed.out()))).isEqualTo(withoutTimes(JSON.readTree(recorded.out())));
    }

    @Test
    void validate_and_compile_take_documents() throws Exception {
        Path doc = write("checks.idyll", DOCUMENT);
        CliRun validate = planvm("validate", doc.toString());
        assertThat(validate.exitCode()).as(validate.err()).isZero();
        CliRun compile = planvm("compile", doc.toString());
        assertThat(compile.exitCode()).as(compile.err()).isZero();
        JsonNode plan = JSON.readTree(compile.out());
        assertThat(plan.path("name").asText()).isEqualTo("checks");
        assertThat(plan.path("plan")
                        .get(1)
                        .path("parameters")
                        .path("on_error")
                        .path("jump")
                        .asInt())
                .isEqualTo(4);
        CliRun invalid = planvm(
                "validate",
                write("k.idyll", "<document><fncall idyll-fn=\"x-y\"/></document>")
                        .toString());
        assertThat(invalid.exitCode()).isEqualTo(2);
        assertThat(invalid.out() + invalid.err()).contains("k.idyll: line 1, column 11: 'x-y' is not a function name");
    }

    @Test
    void the_trace_names_each_block_s_line() throws Exception {
        Path doc = write("checks.idyll", DOCUMENT);
        Path trace = dir.resolve("trace.json");
        CliRun run = run(doc, "--trace", trace.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        JsonNode steps = JSON.readTree(trace.toFile()).path("steps");
        assertThat(steps.get(1).path("line").asInt())
                .as("the first block's calling step")
                .isEqualTo(5);
        assertThat(steps.get(1).path("type").asText()).isEqualTo("calling");
        assertThat(JSON.readTree(trace.toFile()).path("result"))
                .as("the trace's result is the printed report, with the blocks' times")
                .isEqualTo(JSON.readTree(run.out()));
    }

    @Test
    void a_block_waiting_for_a_person_is_a_durable_run_that_answer_continues() throws Exception {
        Path doc = write(
                "approve.idyll",
                "<document>\n  <fncall id=\"ask\" idyll-fn=\"human_input\"><params>{\"prompt\": \"Ship it?\","
                        + " \"choices\": [\"yes\", \"no\"]}</params></fncall>\n"
                        + "  <fncall id=\"after\" idyll-fn=\"demo:lookup\"><params>{\"key\": \"c\"}</params></fncall>\n"
                        + "</document>\n");
        CliRun waiting = run(doc);
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for input.*", "$1")
                .trim();
        CliRun answered = planvm("answer", id, "--text", "yes", "--config", config().toString());
        assertThat(answered.exitCode()).as(answered.err()).isZero();
        JsonNode report = JSON.readTree(answered.out());
        assertThat(report.path("nodes").get(0).path("data").asText()).isEqualTo("yes");
        assertThat(report.path("nodes").get(1).path("data").path("value").asText())
                .isEqualTo("v-c");
        assertThat(report.at("/nodes/1/duration_ms").asDouble())
                .as("the block after the answer: its steps' time, not the 0 the plan writes")
                .isPositive();
        double blocks = report.at("/nodes/0/duration_ms").asDouble()
                + report.at("/nodes/1/duration_ms").asDouble();
        assertThat(report.at("/metadata/totalDuration_ms").asDouble())
                .as("the total, every session's steps")
                .isGreaterThanOrEqualTo(blocks - 0.002);
        CliRun shown = planvm("show", id);
        assertThat(shown.exitCode()).as(shown.err()).isZero();
        assertThat(JSON.readTree(shown.out()).path("result"))
                .as("show gives the stored run's report with the same times")
                .isEqualTo(report);
        CliRun html =
                planvm("report", id, "--output", dir.resolve("report.html").toString());
        assertThat(html.exitCode()).as(html.err()).isZero();
        assertThat(Files.readString(dir.resolve("report.html"))).contains("approve.idyll");
    }

    @Test
    void a_plan_calls_a_document_s_custom_function_as_a_plan_tool() throws Exception {
        write("tools/lookups.idyll", """
                <document id="lookups">
                  <tool title="Look Both">
                    <tool:description>Looks two keys up</tool:description>
                    <tool:definition>
                      <fncall idyll-tool="demo:lookup"><params>{"key": "x"}</params></fncall>
                      <fncall idyll-tool="demo:lookup"><params>{"key": "y"}</params></fncall>
                    </tool:definition>
                  </tool>
                </document>
                """);
        Path plan = write(
                "caller.json",
                "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"custom--look_both\","
                        + " \"tool_params\": {}, \"output_vars\": \"final_answer\"}}]");
        CliRun run = planvm(
                "run",
                plan.toString(),
                "--config",
                config().toString(),
                "--plan-tools",
                dir.resolve("tools").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode report = JSON.readTree(run.out());
        assertThat(report.at("/metadata/functionName").asText()).isEqualTo("Look Both");
        assertThat(report.at("/metadata/nodesSucceeded").asInt()).isEqualTo(2);
        assertThat(report.at("/nodes/1/data/value").asText()).isEqualTo("v-y");
        assertThat(report.path("variables").isEmpty()).isTrue();
    }

    private static JsonNode withoutTimes(JsonNode report) {
        ObjectNode copy = report.deepCopy();
        copy.path("nodes").forEach(n -> ((ObjectNode) n).remove("duration_ms"));
        ((ObjectNode) copy.path("metadata")).remove("totalDuration_ms");
        return copy;
    }
}
