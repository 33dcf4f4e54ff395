package dev.planvm.dialects.internal.ppe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How PPE scripts are chosen, what they compile to, and how the compiled control flow runs. */
class PpeDialectTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/ppe");

    @TempDir
    Path dir;

    @Test
    void the_double_extension_ai_yaml_chooses_ppe_before_plain_yaml() {
        assertThat(Dialect.ofFile("guide.ai.yaml")).isEqualTo(Dialect.PPE);
        assertThat(Dialect.ofFile("dir/GUIDE.AI.YML")).isEqualTo(Dialect.PPE);
        assertThat(Dialect.ofFile("trip.yaml")).isEqualTo(Dialect.YAML);
        assertThat(Dialect.ofFile("ai.yaml")).isEqualTo(Dialect.YAML);
        assertThat(Dialect.named("ppe")).hasValue(Dialect.PPE);
        assertThat(PlanSources.isDialectFile("x.ai.yaml")).isTrue();
    }

    @Test
    void a_script_loads_through_plan_sources_as_a_plan_tool_document_that_knows_its_lines() throws IOException {
        Path script = Files.writeString(
                dir.resolve("hello.ai.yaml"),
                "---\ndescription: Greets\n---\n- user: Say hello.\n- assistant: \"[[GREETING]]\"\n");
        LoadResult loaded = PlanSources.of(new PlanLoader()).load(script);
        assertThat(loaded.errors()).isEmpty();
        int call = loaded.plan().instructions().stream()
                .filter(i -> i instanceof dev.planvm.instructions.Calling)
                .findFirst()
                .orElseThrow()
                .seqNo();
        assertThat(loaded.plan().sourceLine(call)).hasValue(5);
        Compiled compiled = PlanSources.of(new PlanLoader()).compile(script, null);
        assertThat(compiled.plan().path("name").asText()).isEqualTo("hello");
        assertThat(compiled.plan().path("description").asText()).isEqualTo("Greets");
    }

    @Test
    void an_error_names_the_script_line_and_the_construct() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile("- user: hi\n- $AI\n- $exec: x\n", "x.ai.yaml");
        assertThat(compiled.valid()).isFalse();
        assertThat(compiled.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("x.ai.yaml"))
                        .startsWith("x.ai.yaml: line 3, column 3: $exec (running another script) is not supported"));
    }

    @Test
    void a_chain_to_a_script_that_is_nowhere_compiles_with_a_warning_and_fails_when_it_runs() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile("- $echo: hi\n- -> translator\n", "x.ai.yaml");
        assertThat(compiled.valid()).isTrue();
        assertThat(compiled.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w.format("x.ai.yaml"))
                        .contains("x.ai.yaml: line 2, column 3: the script 'translator' is not found"));
        PlanVm vm = PlanVm.builder().build();
        RunResult result = vm.run(compiled.load(vm.loader(), "x.ai.yaml").planOrThrow(), Map.of());
        assertThat(result.error().message()).contains("line 2: no script 'translator'");
    }

    @Test
    void a_front_matter_default_is_assigned_only_when_the_run_does_not_give_the_input() {
        String script = "---\ninput:\n  - target: {default: French}\n---\n- $echo: \"to {{target}}\"\n";
        Compiled without = DialectCompiler.of(Dialect.PPE).compile(script, "t.ai.yaml");
        Compiled given = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(java.util.Set.of("target")))
                .compile(script, "t.ai.yaml");
        assertThat(without.plan().path("plan").findValuesAsText("target")).containsExactly("French");
        assertThat(given.plan().path("plan").findValues("target")).isEmpty();
        assertThat(without.plan().at("/inputs/properties/target/default").asText())
                .isEqualTo("French");
    }

    @Test
    void nested_loops_continue_and_break_the_inner_loop() throws IOException {
        assertThat(run("loops-in-loops", Map.of())).isEqualTo(IntNode.valueOf(12));
    }

    @Test
    void ret_in_a_branch_ends_the_script_with_its_value() throws IOException {
        assertThat(run("ret-in-a-branch", Map.of("n", IntNode.valueOf(11)))).isEqualTo(TextNode.valueOf("big"));
        assertThat(run("ret-in-a-branch", Map.of("n", IntNode.valueOf(3)))).isEqualTo(IntNode.valueOf(3));
    }

    @Test
    void jinja_if_elif_else_in_a_template_picks_the_branch_its_conditions_choose() throws IOException {
        assertThat(run("jinja-if", Map.of("n", IntNode.valueOf(11), "name", TextNode.valueOf("Ann"))))
                .isEqualTo(TextNode.valueOf("big: 'Ann' \\ eleven."));
        assertThat(run("jinja-if", Map.of("n", IntNode.valueOf(5), "name", TextNode.valueOf("Bo"))))
                .isEqualTo(TextNode.valueOf("mid: 'Bo'."));
        assertThat(run("jinja-if", Map.of("n", IntNode.valueOf(1), "name", TextNode.valueOf(""))))
                .isEqualTo(TextNode.valueOf("small: ."));
    }

    @Test
    void jinja_for_and_set_in_turns_render_the_prompt_the_recorded_answer_was_given() throws IOException {
        PlanVm vm = PlanVm.builder().build();
        Compiled compiled = DialectCompiler.of(Dialect.PPE)
                .compile(Files.readString(GOLDEN.resolve("jinja-for-set.ai.yaml")), "jinja-for-set.ai.yaml");
        RunResult result = vm.run(
                compiled.load(vm.loader(), "jinja-for-set.ai.yaml").planOrThrow(),
                Map.of(),
                dev.planvm.vm.RunMode.replay(
                        dev.planvm.tools.cassette.Cassette.read(GOLDEN.resolve("jinja-for-set.cassette.json")), false));
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer()).isEqualTo(TextNode.valueOf("1. pears 2. plums 3. apples"));
        assertThat(result.variables().get("FOR_1")).isEqualTo(TextNode.valueOf(" 1. apples; 2. pears; 3. plums"));
    }

    @Test
    void a_jinja_for_over_an_empty_list_renders_nothing_and_set_in_a_branch_not_taken_assigns_nothing() {
        PlanVm vm = PlanVm.builder().build();
        Compiled compiled = DialectCompiler.of(
                        Dialect.PPE, DialectOptions.DEFAULT.withInputs(java.util.Set.of("xs", "flag")))
                .compile(
                        "- user: \"[{% for x in xs %}{{x}},{% endfor %}]{% if flag %}{% set y = 1 %}{% endif %}\"\n",
                        "e.ai.yaml");
        dev.planvm.tools.Tool echo = dev.planvm.tools.Tool.of(
                "llm_generate",
                "answers with the last message",
                (params, call) -> params.path("messages")
                        .get(params.path("messages").size() - 1)
                        .path("content"));
        RunResult result = PlanVm.builder()
                .tool(echo)
                .build()
                .run(
                        compiled.load(vm.loader(), "e.ai.yaml").planOrThrow(),
                        Map.of("xs", JsonNodeFactory.instance.arrayNode(), "flag", BooleanNode.FALSE));
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer()).isEqualTo(TextNode.valueOf("[]"));
        assertThat(result.variables()).doesNotContainKey("y");
    }

    @Test
    void literal_dollar_braces_stay_text_and_a_dollar_before_a_template_stays_a_dollar() {
        PlanVm vm = PlanVm.builder().build();
        Compiled compiled = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(java.util.Set.of("p")))
                .compile("- $echo: \"${x} costs ${{p}} or ~{{p}}\"\n", "d.ai.yaml");
        RunResult result =
                vm.run(compiled.load(vm.loader(), "d.ai.yaml").planOrThrow(), Map.of("p", IntNode.valueOf(5)));
        assertThat(result.finalAnswer()).isEqualTo(TextNode.valueOf("${x} costs $5 or ~5"));
    }

    private static JsonNode run(String golden, Map<String, JsonNode> inputs) throws IOException {
        PlanVm vm = PlanVm.builder().build();
        Compiled compiled = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(inputs.keySet()))
                .compile(Files.readString(GOLDEN.resolve(golden + ".ai.yaml")), golden + ".ai.yaml");
        RunResult result = vm.run(compiled.load(vm.loader(), golden).planOrThrow(), inputs);
        assertThat(result.error()).isNull();
        return result.finalAnswer();
    }
}
