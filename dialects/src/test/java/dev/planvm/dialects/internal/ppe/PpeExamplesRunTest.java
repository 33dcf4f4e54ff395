package dev.planvm.dialects.internal.ppe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every seed 004 example in the supported subset compiles, loads and runs on today's VM against its
 * cassette ({@code X.cassette.json}: recorded LLM and tool answers, nothing installed) to its
 * expected answer ({@code X.answer.json}).
 */
class PpeExamplesRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EXAMPLES = Path.of("src/test/resources/examples/seed004");

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "dialogue-list",
                "test",
                "test-asterisks",
                "translator-no-if",
                "dobby-asks",
                "joke-list",
                "fruits",
                "temperature",
                "ai-directive",
                "if-list",
                "for-count-list",
                "format",
                "weather"
            })
    void each_seed_example_runs_against_its_cassette_to_its_expected_answer(String example) throws IOException {
        RunResult result = run(example, Map.of());
        assertThat(result.error()).as("run error").isNull();
        assertThat(result.finalAnswer()).isEqualTo(answer(example));
    }

    @Test
    void the_calculator_answers_its_content_input_with_the_number_its_output_schema_asks_for() throws IOException {
        RunResult result = run("calculator", Map.of("content", TextNode.valueOf("13.1 + 4.857")));
        assertThat(result.finalAnswer()).isEqualTo(answer("calculator"));
        assertThat(result.finalAnswer().isNumber()).isTrue();
    }

    @Test
    void match_runs_the_first_pattern_that_matches_its_condition() throws IOException {
        assertThat(run("match-subset", Map.of("condition", IntNode.valueOf(4))).finalAnswer())
                .isEqualTo(answer("match-subset"));
        assertThat(run("match-subset", Map.of("condition", IntNode.valueOf(13))).finalAnswer())
                .isEqualTo(TextNode.valueOf("greater than 12"));
        assertThat(run("match-subset", Map.of("condition", TextNode.valueOf("string")))
                        .finalAnswer())
                .isEqualTo(TextNode.valueOf("the string"));
        assertThat(run("match-subset", Map.of("condition", IntNode.valueOf(2))).finalAnswer())
                .isEqualTo(TextNode.valueOf("one or two"));
        assertThat(run("match-subset", Map.of("condition", IntNode.valueOf(0))).finalAnswer())
                .isEqualTo(TextNode.valueOf("else matched"));
    }

    @Test
    void a_tool_directive_calls_the_configured_tool_with_its_params() throws IOException {
        RunResult result = run("tool", Map.of("city", TextNode.valueOf("Oslo")));
        assertThat(result.finalAnswer()).isEqualTo(answer("tool"));
    }

    @Test
    void while_counts_down_and_break_leaves_the_loop() {
        RunResult result = run("while", Map.of());
        assertThat(result.error()).isNull();
        assertThat(result.variables().get("i")).isEqualTo(IntNode.valueOf(2));
    }

    @Test
    void abort_stops_the_run_with_a_failed_step_that_gives_the_reason() {
        RunResult result = run("abort", Map.of());
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().message()).contains("too many attempts (3)").contains("line 5");
    }

    /** Compiles (the inputs given), loads and runs an example, replaying its cassette when it has one. */
    static RunResult run(String example, Map<String, JsonNode> inputs) {
        Path source = EXAMPLES.resolve(example + ".ai.yaml");
        Compiled compiled;
        try {
            compiled = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(inputs.keySet()))
                    .compile(Files.readString(source), source.getFileName().toString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        assertThat(compiled.errors()).as("compile errors").isEmpty();
        PlanVm vm = PlanVm.builder().build();
        Plan plan = compiled.load(vm.loader(), source.getFileName().toString()).planOrThrow();
        Path cassette = EXAMPLES.resolve(example + ".cassette.json");
        RunMode mode = Files.exists(cassette) ? RunMode.replay(Cassette.read(cassette), false) : RunMode.live();
        return vm.run(plan, inputs, mode);
    }

    static JsonNode answer(String example) throws IOException {
        return JSON.readTree(EXAMPLES.resolve(example + ".answer.json").toFile());
    }
}
