package dev.planvm.dialects.internal.ppe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.ImportedPlan;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Imported scripts become plan tools; chains and invocation replacements call them, results passed on. */
class PpeImportsTest {

    private static final Path IMPORTS = Path.of("src/test/resources/golden/ppe/imports");

    @TempDir
    Path dir;

    /** A stand-in LLM: answers a few prompts, and says which prompt it did not know. */
    private static final Tool LLM = Tool.of("llm_generate", "stand-in", (params, call) -> {
        String prompt = lastUser(params);
        return TextNode.valueOf(
                switch (prompt) {
                    case "Tell me a joke!" -> "why not";
                    case "Translate to Portuguese: why not" -> "por que não";
                    default -> "unknown prompt: " + prompt;
                });
    });

    /** The text of the last user message a call sends. */
    private static String lastUser(JsonNode params) {
        String text = "";
        for (JsonNode message : params.path("messages")) {
            if (message.path("role").asText().equals("user")) {
                text = message.path("content").asText();
            }
        }
        return text;
    }

    /** The text of the last message a call sends (the assistant's turn begun, when there is one). */
    private static String last(JsonNode params) {
        JsonNode messages = params.path("messages");
        return messages.get(messages.size() - 1).path("content").asText();
    }

    @Test
    void a_script_compiled_from_its_file_carries_its_imports_named_as_imported() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile(IMPORTS.resolve("chain.ai.yaml"));
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.imports()).extracting(ImportedPlan::name).containsExactly("translator", "shout");
        ImportedPlan translator = compiled.imports().get(0);
        assertThat(translator.plan().path("name").asText()).isEqualTo("translator");
        assertThat(translator.file().getFileName().toString()).isEqualTo("translate.ai.yaml");
        // its declared input's default comes from the schema when the caller leaves it out, never over the caller's
        assertThat(translator.plan().path("plan").findValues("target_lang")).isEmpty();
        assertThat(translator
                        .plan()
                        .at("/inputs/properties/target_lang/default")
                        .asText())
                .isEqualTo("French");
    }

    @Test
    void a_chain_passes_each_result_on_as_content_and_prints_the_last() {
        RunResult result = run(IMPORTS.resolve("chain.ai.yaml"), Map.of());
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer()).isEqualTo(TextNode.valueOf("POR QUE NÃO."));
        assertThat(result.variables().get("JOKE")).isEqualTo(TextNode.valueOf("why not"));
    }

    @Test
    void a_chain_spreads_an_object_result_as_the_next_scripts_inputs_with_its_own_arguments_over_them() {
        RunResult result =
                run(IMPORTS.resolve("chain-object.ai.yaml"), Map.of("name", TextNode.valueOf("Ada Lovelace")));
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer()).isEqualTo(TextNode.valueOf("Hi, Ada Lovelace!"));
    }

    @Test
    void an_invocation_in_a_jinja_if_runs_only_when_its_branch_is_taken_and_in_a_for_once_per_element() {
        Tool echoPrompt = Tool.of(
                "llm_generate",
                "answers the prompt it was sent and the assistant's turn",
                (params, call) -> TextNode.valueOf(lastUser(params) + " | " + last(params)));
        JsonNode names = new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(List.of("bo", "cy"));
        RunResult loud = run(
                IMPORTS.resolve("invocation-in-blocks.ai.yaml"),
                Map.of(
                        "name",
                        TextNode.valueOf("ann"),
                        "loud",
                        com.fasterxml.jackson.databind.node.BooleanNode.TRUE,
                        "names",
                        names),
                echoPrompt);
        assertThat(loud.error()).isNull();
        assertThat(loud.variables().get("shout_RESULT")).isEqualTo(TextNode.valueOf("ANN!"));
        assertThat(loud.variables().get("FOR_1")).isEqualTo(TextNode.valueOf(" BO. CY."));

        RunResult quiet = run(
                IMPORTS.resolve("invocation-in-blocks.ai.yaml"),
                Map.of(
                        "name",
                        TextNode.valueOf("ann"),
                        "loud",
                        com.fasterxml.jackson.databind.node.BooleanNode.FALSE,
                        "names",
                        names),
                echoPrompt);
        assertThat(quiet.error()).isNull();
        assertThat(quiet.variables()).doesNotContainKey("shout_RESULT");
        assertThat(quiet.variables().get("FOR_1")).isEqualTo(TextNode.valueOf(" BO. CY."));
    }

    @Test
    void an_invocation_calls_the_script_before_the_turn_that_shows_its_result() {
        Tool echoPrompt = Tool.of(
                "llm_generate",
                "answers the prompt it was sent and the answer begun",
                (params, call) -> TextNode.valueOf(lastUser(params) + " | " + last(params)));
        RunResult result =
                run(IMPORTS.resolve("invocation.ai.yaml"), Map.of("name", TextNode.valueOf("ann")), echoPrompt);
        assertThat(result.error()).isNull();
        // the result is the assistant's turn: its text before the answer, then the answer
        assertThat(result.finalAnswer())
                .isEqualTo(TextNode.valueOf("Hello ANN., Greet ann. Say ANN? first. | Hello ANN., "));
    }

    @Test
    void imports_of_imports_are_plan_tools_too_and_a_script_imported_twice_is_one_tool() throws IOException {
        Files.writeString(dir.resolve("leaf.ai.yaml"), "---\ninput: [content]\n---\n- $ret: \"?=content + '!'\"\n");
        Files.writeString(
                dir.resolve("middle.ai.yaml"),
                "---\ninput: [content]\nimport: [leaf.ai.yaml]\n---\n- $echo: \"?=content\"\n- -> leaf\n");
        Path top = Files.writeString(
                dir.resolve("top.ai.yaml"),
                "---\nimport: [middle.ai.yaml, leaf.ai.yaml]\n---\n- $echo: hi\n- -> middle -> leaf\n");
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile(top);
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.imports()).extracting(ImportedPlan::name).containsExactly("middle", "leaf");
        assertThat(run(top, Map.of()).finalAnswer()).isEqualTo(TextNode.valueOf("hi!!"));
    }

    @Test
    void a_script_given_as_text_cannot_import() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE)
                .compile("---\nimport: [lib/shout.ai.yaml]\n---\n- $echo: hi\n", "x.ai.yaml");
        assertThat(compiled.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("x.ai.yaml"))
                        .startsWith("x.ai.yaml: line 2, column 10: 'import' finds scripts beside the importing"));
    }

    @Test
    void an_error_in_an_imported_script_is_reported_at_the_import_with_its_own_line() throws IOException {
        Files.writeString(dir.resolve("bad.ai.yaml"), "- user: hi\n- $unknown\n");
        Path top = Files.writeString(dir.resolve("top.ai.yaml"), "---\nimport:\n  - bad.ai.yaml\n---\n- $echo: hi\n");
        LoadResult loaded = PlanSources.of(new PlanLoader()).load(top);
        assertThat(loaded.plan()).isNull();
        assertThat(loaded.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("top.ai.yaml"))
                        .startsWith("top.ai.yaml: line 3, column 5: the imported script 'bad.ai.yaml' does not"
                                + " compile: bad.ai.yaml: line 2, column 3: unknown directive $unknown"));
    }

    private static RunResult run(Path script, Map<String, JsonNode> inputs) {
        return run(script, inputs, LLM);
    }

    /** Compiles the script from its file and runs it on a VM that offers its imports as plan tools. */
    private static RunResult run(Path script, Map<String, JsonNode> inputs, Tool llm) {
        Compiled compiled = DialectCompiler.of(
                        Dialect.PPE, dev.planvm.dialects.DialectOptions.DEFAULT.withInputs(inputs.keySet()))
                .compile(script);
        assertThat(compiled.errors()).isEmpty();
        PlanVmBuilder builder = PlanVm.builder().tool(llm);
        List<dev.planvm.instructions.Plan> tools = new ArrayList<>();
        for (ImportedPlan imported : compiled.imports()) {
            tools.add(imported.load(new PlanLoader()).planOrThrow());
        }
        PlanVm vm = builder.planTools(tools).build();
        return vm.run(compiled.load(vm.loader(), script.toString()).planOrThrow(), inputs);
    }
}
