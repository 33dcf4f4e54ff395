package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The regression use case: every plan in {@code plans/} with an {@code X.expected.json} runs
 * (replaying {@code X.cassette.json} when there is one, with no tool installed and no LLM) to
 * exactly the expected {@code final_answer} and status.
 */
class ExamplePlansReplayTest {

    private static final Path PLANS = Path.of("../plans");

    @TestFactory
    Stream<DynamicTest> every_stored_example_replays_to_its_expected_answer() throws IOException {
        List<Path> expectations;
        try (Stream<Path> files = Files.list(PLANS)) {
            // the StackVM JSON examples; a YAML or JavaScript example (X.yaml) needs the dialects module,
            // so planvm test plans/ (TestCommandTest, and .ci/run) replays those
            expectations = files.filter(p -> p.toString().endsWith(".expected.json"))
                    .filter(p -> Files.exists(
                            PLANS.resolve(p.getFileName().toString().replace(".expected.json", ".json"))))
                    .sorted()
                    .toList();
        }
        assertThat(expectations).hasSizeGreaterThanOrEqualTo(4);
        return expectations.stream()
                .map(expected -> DynamicTest.dynamicTest(expected.getFileName().toString(), () -> {
                    String base = expected.getFileName().toString().replace(".expected.json", "");
                    Path cassetteFile = PLANS.resolve(base + ".cassette.json");
                    PlanVm vm = PlanVm.builder().build();
                    RunMode options = Files.exists(cassetteFile)
                            ? RunMode.replay(Cassette.read(cassetteFile), false)
                            : RunMode.live();
                    RunResult result = vm.run(
                            vm.loader().load(PLANS.resolve(base + ".json")).planOrThrow(), Map.of(), options);
                    JsonNode want = new ObjectMapper().readTree(expected.toFile());
                    assertThat(result.status().name().toLowerCase())
                            .isEqualTo(want.path("status").asText("succeeded"));
                    assertThat(result.finalAnswer()).isEqualTo(want.get("final_answer"));
                }));
    }
}
