package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The stored plans in {@code plans/}, including the examples of the StackVM spec (seeds/002), validate. */
class ExamplePlansTest {

    @Test
    void every_stored_plan_is_valid() throws IOException {
        List<Path> plans;
        try (Stream<Path> files = Files.list(Path.of("../plans"))) {
            plans = files.filter(p -> p.toString().endsWith(".json")
                            && !p.toString().endsWith(".cassette.json")
                            && !p.toString().endsWith(".expected.json"))
                    .sorted()
                    .toList();
        }
        assertThat(plans)
                .extracting(p -> p.getFileName().toString())
                .contains(
                        "spec-assign.json",
                        "spec-even-or-odd.json",
                        "spec-sales-insights.json",
                        "refine-until-complete.json",
                        "stackvm-tidb-best-practices.json");
        PlanLoader loader = new PlanLoader();
        for (Path plan : plans) {
            assertThat(loader.load(plan).errors()).as(plan.toString()).isEmpty();
        }
    }

    @Test
    void the_spec_examples_keep_their_shapes() {
        PlanLoader loader = new PlanLoader();
        Assign assign = (Assign)
                loader.load(Path.of("../plans/spec-assign.json")).planOrThrow().instruction(0);
        assertThat(assign.values().keySet()).containsExactly("number", "doubled_number");
        Jmp jmp = (Jmp) loader.load(Path.of("../plans/spec-even-or-odd.json"))
                .planOrThrow()
                .instruction(2);
        assertThat(jmp.branch()).isInstanceOf(Jmp.LlmCondition.class);
        Calling calling = (Calling) loader.load(Path.of("../plans/spec-sales-insights.json"))
                .planOrThrow()
                .instruction(2);
        assertThat(calling.outputVars().names()).containsExactly("summary", "insights");
    }
}
