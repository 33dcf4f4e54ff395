package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Golden runs: {@code golden/run/NAME.json} is a plan, {@code NAME.expected.json} what running it
 * must give: {@code answer} (the final_answer) or {@code error} (the failure as
 * {@code seq_no N (type): cause}, a prefix when {@code error_contains} is also given), and
 * optionally {@code inputs}, scripted {@code conditions}, {@code strict}, {@code max_steps}, the
 * {@code warnings}, the {@code condition_prompts} seen, per-tool {@code tool_calls} counts and
 * the {@code expected_keys} passed to each tool call. Tools: see {@link TestTools}.
 */
class GoldenRunTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/run");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> every_golden_plan_runs_to_its_expected_result() throws IOException {
        List<Path> plans;
        try (Stream<Path> files = Files.list(GOLDEN)) {
            plans = files.filter(
                            p -> p.toString().endsWith(".json") && !p.toString().endsWith(".expected.json"))
                    .sorted()
                    .toList();
        }
        assertThat(plans).hasSizeGreaterThan(30);
        return plans.stream()
                .map(plan -> DynamicTest.dynamicTest(plan.getFileName().toString(), () -> check(plan)));
    }

    private static void check(Path planFile) throws IOException {
        JsonNode expected =
                MAPPER.readTree(GOLDEN.resolve(planFile.getFileName().toString().replace(".json", ".expected.json"))
                        .toFile());
        List<Boolean> answers = new ArrayList<>();
        expected.path("conditions").forEach(a -> answers.add(a.asBoolean()));
        TestTools tools = new TestTools().answering(answers);
        PlanVm vm = PlanVm.builder()
                .tools(tools.tools())
                .conditionEvaluator(tools.conditions())
                .strict(expected.path("strict").asBoolean(false))
                .maxSteps(expected.path("max_steps").asInt(PlanVm.DEFAULT_MAX_STEPS))
                .build();
        Plan plan = vm.loader().load(planFile).planOrThrow();
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        expected.path("inputs").properties().forEach(e -> inputs.put(e.getKey(), e.getValue()));

        RunResult result = vm.run(plan, inputs);

        if (expected.has("error")) {
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            String described = result.error().describe();
            if (expected.has("error_contains")) {
                assertThat(described)
                        .startsWith(expected.get("error").asText())
                        .contains(expected.get("error_contains").asText());
            } else {
                assertThat(described).isEqualTo(expected.get("error").asText());
            }
        } else {
            assertThat(result.error()).as("error").isNull();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.finalAnswer()).isEqualTo(expected.get("answer"));
        }
        if (expected.has("warnings")) {
            assertThat(result.warnings()).containsExactlyElementsOf(texts(expected.get("warnings")));
        }
        if (expected.has("condition_prompts")) {
            assertThat(tools.conditionPrompts).containsExactlyElementsOf(texts(expected.get("condition_prompts")));
        }
        expected.path("tool_calls")
                .properties()
                .forEach(e -> assertThat(tools.calls.get(e.getKey()))
                        .as("calls of " + e.getKey())
                        .hasValue(e.getValue().asInt()));
        if (expected.has("expected_keys")) {
            List<List<String>> keys = new ArrayList<>();
            expected.get("expected_keys").forEach(call -> keys.add(texts(call)));
            assertThat(tools.expectedKeys).isEqualTo(keys);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
