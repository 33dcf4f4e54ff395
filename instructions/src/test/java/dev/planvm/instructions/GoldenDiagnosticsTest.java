package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * One golden file per diagnostic: {@code golden/NAME.json} is a plan, {@code golden/NAME.expected}
 * the exact lines {@code planvm validate} prints for it (errors, warnings, and {@code ok} when the
 * plan is valid).
 */
class GoldenDiagnosticsTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    @TestFactory
    Stream<DynamicTest> every_golden_plan_gets_exactly_its_expected_diagnostics() throws IOException {
        PlanLoader loader = new PlanLoader();
        List<Path> plans;
        try (Stream<Path> files = Files.list(GOLDEN)) {
            plans = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(plans).hasSizeGreaterThan(40);
        return plans.stream()
                .map(plan -> DynamicTest.dynamicTest(plan.getFileName().toString(), () -> {
                    String name = plan.getFileName().toString();
                    Path expectedFile = GOLDEN.resolve(name.replace(".json", ".expected"));
                    assertThat(expectedFile)
                            .as("expected output beside " + name)
                            .exists();
                    LoadResult result = loader.load(plan);
                    StringBuilder actual = new StringBuilder();
                    result.diagnostics()
                            .forEach(d -> actual.append(d.format(name)).append('\n'));
                    if (result.valid()) {
                        actual.append(name).append(": ok\n");
                    }
                    assertThat(actual.toString()).isEqualTo(Files.readString(expectedFile));
                }));
    }
}
