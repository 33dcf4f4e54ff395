package dev.planvm.instructions.reach;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * One golden case per behaviour of the reach analysis: {@code reach/NAME.json} is a plan, {@code NAME.facts.json}
 * (optional) its tools, plan tools, secrets and policy ({@link GoldenFacts}), and {@code NAME.reach.txt} the exact
 * report {@code planvm validate --reach} prints for it. {@code -Dplanvm.golden.write=true} writes the expectations.
 */
class ReachGoldenTest {

    private static final Path GOLDEN = Path.of("src/test/resources/reach");

    @TestFactory
    Stream<DynamicTest> every_golden_plan_gets_exactly_its_expected_reach() throws IOException {
        List<Path> plans;
        try (Stream<Path> files = Files.list(GOLDEN)) {
            plans = files.filter(
                            p -> p.toString().endsWith(".json") && !p.toString().endsWith(".facts.json"))
                    .sorted()
                    .toList();
        }
        assertThat(plans).hasSizeGreaterThanOrEqualTo(5);
        return plans.stream()
                .map(plan -> DynamicTest.dynamicTest(plan.getFileName().toString(), () -> {
                    String name = plan.getFileName().toString().replace(".json", "");
                    GoldenFacts facts = GoldenFacts.read(GOLDEN.resolve(name + ".facts.json"));
                    LoadResult loaded = new PlanLoader().load(plan);
                    assertThat(loaded.errors()).isEmpty();
                    Reach reach = PlanReach.analyze(loaded.plan(), facts, facts.secrets, facts.policy);
                    String actual = reach.table();
                    Path expected = GOLDEN.resolve(name + ".reach.txt");
                    if (Boolean.getBoolean("planvm.golden.write")) {
                        Files.writeString(expected, actual, StandardCharsets.UTF_8);
                    }
                    assertThat(expected)
                            .as("expected report beside " + plan.getFileName())
                            .exists();
                    assertThat(actual).isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
                }));
    }
}
