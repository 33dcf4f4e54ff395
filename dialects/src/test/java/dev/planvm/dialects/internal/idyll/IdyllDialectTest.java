package dev.planvm.dialects.internal.idyll;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.IdyllDocuments;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.llm.LlmConfig;
import dev.planvm.llm.LlmGenerateTool;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Seed 003's rules for documents, one behaviour each, compiled and run on a real VM. */
class IdyllDialectTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What each tool was called with, in order. */
    private final List<JsonNode> calls = new CopyOnWriteArrayList<>();

    private Tool recording(String name, String schema) throws Exception {
        return Tool.of(name, "records its params", JSON.readTree(schema), (p, c) -> {
            calls.add(p);
            return JSON.createObjectNode().put("from", name);
        });
    }

    private JsonNode run(String document, PlanVmBuilder builder) {
        PlanVm vm = builder.build();
        LoadResult loaded = PlanSources.of(vm.loader())
                .withToolSchemas(n -> vm.tools().find(n).map(Tool::paramsSchema))
                .load(document, "doc.idyll", null);
        assertThat(loaded.errors()).isEmpty();
        RunResult result = vm.run(loaded.plan(), Map.of());
        assertThat(result.error()).isNull();
        return result.finalAnswer();
    }

    private static List<Diagnostic> errors(String document) {
        return DialectCompiler.of(Dialect.IDYLL).compile(document, "doc.idyll").errors();
    }

    @Test
    void the_seed_s_spelling_means_the_same_as_the_reference_s() {
        Compiled reference = DialectCompiler.of(Dialect.IDYLL)
                .compile(
                        "<document><function title=\"F\"><function:description>d</function:description>"
                                + "<function:definition><fncall idyll-fn=\"a:b\"/></function:definition></function>"
                                + "<fncall id=\"x\" idyll-fn=\"custom:f\"/></document>",
                        "a.idyll");
        Compiled seed = DialectCompiler.of(Dialect.IDYLL)
                .compile(
                        "<document><tool title=\"F\"><tool:description>d</tool:description>"
                                + "<tool:definition><fncall idyll-tool=\"a:b\"/></tool:definition></tool>"
                                + "<fncall id=\"x\" idyll-tool=\"custom:f\"/></document>",
                        "a.idyll");
        assertThat(seed.errors()).isEmpty();
        assertThat(seed.plan()).isEqualTo(reference.plan());
    }

    @Test
    void params_win_over_content_and_only_declaring_tools_get_the_context() throws Exception {
        JsonNode report = run(
                """
                <document>
                  <fncall id="one" idyll-fn="t:open"><params>{"content": "from params"}</params><content>ignored</content></fncall>
                  <fncall id="two" idyll-fn="t:context"><content>two's content</content></fncall>
                  <fncall id="three" idyll-fn="t:closed"><params>{"a": 1}</params><content>not taken</content></fncall>
                </document>
                """,
                PlanVm.builder()
                        .tool(recording("t:open", "{\"type\": \"object\"}"))
                        .tool(recording(
                                "t:context",
                                "{\"type\": \"object\", \"properties\": {\"currentBlockId\": {}, \"previousResults\": {}},"
                                        + " \"additionalProperties\": false}"))
                        .tool(
                                recording(
                                        "t:closed",
                                        "{\"type\": \"object\", \"properties\": {\"a\": {}}, \"additionalProperties\": false}")));
        assertThat(report.at("/metadata/nodesSucceeded").asInt()).isEqualTo(3);
        assertThat(calls.get(0)).isEqualTo(JSON.readTree("{\"content\": \"from params\"}"));
        assertThat(calls.get(1).path("currentBlockId").asText()).isEqualTo("two");
        assertThat(calls.get(1).path("previousResults")).hasSize(1);
        assertThat(calls.get(1).at("/previousResults/0/id").asText()).isEqualTo("one");
        assertThat(calls.get(1).at("/previousResults/0/data/from").asText()).isEqualTo("t:open");
        assertThat(calls.get(1).has("content"))
                .as("its schema neither declares content nor allows more")
                .isFalse();
        assertThat(calls.get(2)).isEqualTo(JSON.readTree("{\"a\": 1}"));
    }

    @Test
    void the_azure_form_maps_both_ways() throws Exception {
        JsonNode report = run(
                """
                <document>
                  <fncall id="written-azure" idyll-fn="demo--echo"/>
                  <fncall id="installed-azure" idyll-fn="fn:app"/>
                </document>
                """,
                PlanVm.builder()
                        .tool(recording("demo:echo", "{\"type\": \"object\"}"))
                        .tool(recording("fn--app", "{\"type\": \"object\"}")));
        assertThat(report.at("/nodes/0/data/from").asText()).isEqualTo("demo:echo");
        assertThat(report.at("/nodes/0/fn").asText())
                .as("the report names the function as written")
                .isEqualTo("demo--echo");
        assertThat(report.at("/nodes/1/data/from").asText()).isEqualTo("fn--app");
    }

    @Test
    void blocks_inside_a_definition_run_only_when_the_function_is_called() throws Exception {
        JsonNode report = run("""
                <document>
                  <function title="Twice"><function:definition>
                    <fncall id="inner" idyll-fn="t:open"/>
                  </function:definition></function>
                  <fncall id="outer" idyll-fn="t:open"/>
                </document>
                """, PlanVm.builder().tool(recording("t:open", "{\"type\": \"object\"}")));
        assertThat(report.path("nodes").findValuesAsText("id")).containsExactly("outer");
        assertThat(calls).hasSize(1);
    }

    @Test
    void a_function_s_variables_are_resolved_once_by_the_llm_from_what_the_caller_asks() throws Exception {
        try (FakeOpenAiServer llm = FakeOpenAiServer.start()) {
            llm.reply("{\"topic\": \"tidal power\"}").replyStatus(500, "{\"error\": {\"message\": \"down\"}}");
            JsonNode report = run(
                    """
                    <document>
                      <p>Notes on energy.</p>
                      <function title="Look Up"><function:definition>
                        <fncall idyll-fn="t:open"><content>Find <variable name="topic" prompt="What to look up"/></content></fncall>
                        <fncall idyll-fn="t:open"><content>Again: <variable name="topic"/></content></fncall>
                      </function:definition></function>
                      <fncall id="ask" idyll-fn="custom:look_up"><content>I want to read about tides</content></fncall>
                      <fncall id="again" idyll-fn="custom:look_up"><content>and once more</content></fncall>
                      <fncall id="after" idyll-fn="t:open"/>
                    </document>
                    """,
                    PlanVm.builder()
                            .tool(new LlmGenerateTool(LlmConfig.fromEnvironment(Map.of(
                                            "OPENAI_BASE_URL", llm.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "10"))
                                    .orElseThrow()))
                            .tool(recording("t:open", "{\"type\": \"object\"}")));
            String asked = llm.requests().get(0).toString();
            assertThat(asked)
                    .contains("- topic: What to look up")
                    .contains("I want to read about tides")
                    .contains("Notes on energy.");
            assertThat(calls.get(0).path("content").asText()).isEqualTo("Find tidal power");
            assertThat(calls.get(1).path("content").asText()).isEqualTo("Again: tidal power");
            assertThat(report.at("/nodes/0/data/variables/topic").asText()).isEqualTo("tidal power");
            assertThat(report.at("/nodes/0/data/metadata/functionName").asText())
                    .isEqualTo("Look Up");
            assertThat(report.at("/nodes/0/data/metadata/nodesSucceeded").asInt())
                    .isEqualTo(2);
            assertThat(report.at("/nodes/1/success").asBoolean())
                    .as("the LLM failed: the calling block fails")
                    .isFalse();
            assertThat(report.at("/nodes/2/success").asBoolean())
                    .as("and the next block runs")
                    .isTrue();
        }
    }

    @Test
    void a_function_that_is_no_tool_fails_its_block_when_the_tools_are_known() {
        Compiled known = DialectCompiler.of(Dialect.IDYLL)
                .withToolSchemas(name -> Optional.empty())
                .compile("<document><fncall idyll-fn=\"x:y\"/></document>", "d.idyll");
        assertThat(known.warnings())
                .singleElement()
                .satisfies(
                        w -> assertThat(w.message()).contains("block 'block-1' calls 'x:y', which is not a tool here"));
        assertThat(known.plan().toString()).doesNotContain("calling").contains("Function not found: x:y");
        Compiled unknown =
                DialectCompiler.of(Dialect.IDYLL).compile("<document><fncall idyll-fn=\"x:y\"/></document>", "d.idyll");
        assertThat(unknown.plan().toString()).as("the run finds out").contains("\"tool_name\":\"x:y\"");
    }

    @Test
    void dtds_entities_and_deep_nesting_are_refused_with_their_line() {
        String laughs =
                "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\"><!ENTITY lol2 \"&lol;&lol;\">]>\n"
                        + "<document><p>&lol2;</p></document>";
        assertThat(errors(laughs))
                .singleElement()
                .satisfies(
                        e -> assertThat(e.message())
                                .isEqualTo(
                                        "line 2, column 1: a <!DOCTYPE> is not allowed in a document (no DTDs or entities are read)"));
        assertThat(errors("<document><p>&undeclared;</p></document>"))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.message()).startsWith("line 1, column ").contains("not well-formed"));
        String deep = "<document>" + "<p>".repeat(60) + "</p>".repeat(60) + "</document>";
        assertThat(errors(deep))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains("nest more than 48 deep"));
        assertThat(errors("<agent><p>x</p></agent>"))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .contains("the root element is <agent>: planvm runs documents, whose root is <document>"));
    }

    @Test
    void params_must_be_a_json_object_and_ids_unique() {
        assertThat(errors("<document>\n<fncall idyll-fn=\"a\"><params>{oops}</params></fncall></document>"))
                .singleElement()
                .satisfies(
                        e -> assertThat(e.message()).startsWith("line 2, column 22: the <params> are not valid JSON"));
        assertThat(errors("<document><fncall id=\"a\" idyll-fn=\"x\"/>\n<fncall id=\"a\" idyll-fn=\"y\"/></document>"))
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .isEqualTo("line 2, column 1: two blocks have the id 'a' (the other is at line 1): a block's id"
                                + " must be unique"));
    }

    @Test
    void the_copy_with_results_fills_each_block_and_keeps_everything_else() throws Exception {
        String source = "<document>\n  <fncall id=\"a\" idyll-fn=\"x\"/>\n  <fncall id=\"b\" idyll-fn=\"y\">\n"
                + "    <result>old</result>\n  </fncall>\n  <!-- <fncall id=\"c\"> in a comment --><fncall id=\"c\" "
                + "idyll-fn=\"z\"><params>{\"k\": \"a>b\"}</params></fncall>\n</document>\n";
        JsonNode report = JSON.readTree("{\"nodes\": [{\"id\": \"a\", \"success\": true, \"data\": \"]]>\"},"
                + " {\"id\": \"b\", \"success\": false, \"error\": {\"message\": \"no\"}},"
                + " {\"id\": \"c\", \"success\": true, \"data\": 1}]}");
        assertThat(IdyllDocuments.withResults(source, report))
                .isEqualTo("<document>\n  <fncall id=\"a\" idyll-fn=\"x\"><result><![CDATA[\"]]]]><![CDATA[>\"]]>"
                        + "</result></fncall>\n  <fncall id=\"b\" idyll-fn=\"y\">\n    <result><![CDATA[{\"success\":"
                        + "false,\"error\":{\"message\":\"no\"}}]]></result>\n  </fncall>\n  <!-- <fncall id=\"c\"> in a"
                        + " comment --><fncall id=\"c\" idyll-fn=\"z\"><params>{\"k\": \"a>b\"}</params><result>"
                        + "<![CDATA[1]]></result></fncall>\n</document>\n");
    }

    @Test
    void durations_come_from_the_steps_of_each_block() {
        Compiled compiled = DialectCompiler.of(Dialect.IDYLL)
                .compile(
                        "<document><fncall id=\"a\" idyll-fn=\"x\"/><fncall id=\"b\" idyll-fn=\"y\"/></document>", "d");
        LoadResult loaded = compiled.load(new dev.planvm.instructions.PlanLoader(), "d");
        ObjectNode report = JSON.createObjectNode();
        report.putArray("nodes").addObject().put("id", "a");
        ((com.fasterxml.jackson.databind.node.ArrayNode) report.get("nodes"))
                .addObject()
                .put("id", "b");
        report.putObject("metadata");
        // block a: seq_no 0 (the report's start) to 4; block b: 5 to 8
        JsonNode timed = IdyllDocuments.withDurations(report, loaded.plan(), Map.of(1, 5.0, 2, 1.0, 5, 7.5), 20.0);
        assertThat(timed.at("/nodes/0/duration_ms").asDouble()).isEqualTo(6.0);
        assertThat(timed.at("/nodes/1/duration_ms").asDouble()).isEqualTo(7.5);
        assertThat(timed.at("/metadata/totalDuration_ms").asDouble()).isEqualTo(20.0);
    }
}
