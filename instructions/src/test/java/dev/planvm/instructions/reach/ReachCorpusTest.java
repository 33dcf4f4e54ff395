package dev.planvm.instructions.reach;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reach of every valid plan of the StackVM corpus ({@code plans/compat/stackvm}) and of the JSON examples of
 * {@code plans/}: no plan makes the analysis fail, every report fits the schema, and every call site a run can reach
 * is listed under its tool.
 */
class ReachCorpusTest {

    @Test
    void every_corpus_and_example_plan_gets_a_report_that_lists_each_reachable_call() throws IOException {
        Path stackvm = dev.planvm.instructions.CorpusAccess.directory();
        Path examples = stackvm.getParent().getParent();
        List<Path> files = new ArrayList<>();
        for (Path dir : List.of(stackvm, examples, examples.resolve("plan-tools"))) {
            try (Stream<Path> listed = Files.list(dir)) {
                listed.filter(p -> p.toString().endsWith(".json")
                                && !p.toString().endsWith(".cassette.json")
                                && !p.toString().endsWith(".expected.json"))
                        .sorted()
                        .forEach(files::add);
            }
        }
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Reach.schema());
        PlanLoader loader = new PlanLoader();
        int analysed = 0;
        for (Path file : files) {
            LoadResult loaded = loader.load(file);
            if (!loaded.valid()) {
                continue;
            }
            Plan plan = loaded.plan();
            Reach reach = PlanReach.analyze(plan, ToolFacts.NONE, Set.of(), ReachPolicy.NONE);
            assertThat(schema.validate(reach.toJson())).as(file.toString()).isEmpty();
            Set<Integer> listed = new HashSet<>();
            reach.tools()
                    .forEach(tool ->
                            tool.calls().forEach(call -> listed.add(call.site().seqNo())));
            for (Instruction instruction : plan.instructions()) {
                if (instruction instanceof Calling && reachable(loaded, instruction)) {
                    assertThat(listed)
                            .as(file + " seq_no " + instruction.seqNo())
                            .contains(instruction.seqNo());
                }
            }
            analysed++;
        }
        assertThat(analysed).isGreaterThan(900);
    }

    /** Reachable as the loader's own check says: no "unreachable" warning names it. */
    private static boolean reachable(LoadResult loaded, Instruction instruction) {
        return loaded.warnings().stream()
                .noneMatch(w -> instruction.seqNo() == (w.seqNo() == null ? -1 : w.seqNo())
                        && w.message().startsWith("unreachable"));
    }
}
