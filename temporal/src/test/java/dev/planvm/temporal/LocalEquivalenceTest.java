package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A plan run as a workflow (every call an activity) gives what the same plan gives run locally
 * with the same tools: status, final_answer, error, and the committed step sequence of the trace
 * (seq_no, type, inputs, writes, jumps) — for the example plans, whose tools answer from their
 * cassettes, and for a sample of the StackVM corpus, whose tools answer from their params.
 */
class LocalEquivalenceTest {

    private static final Path PLANS = Path.of("..", "plans");
    private static final StandInTools standIns = new StandInTools();
    private static final Set<String> toolNames =
            new TreeSet<>(Set.of("llm_generate", "vector_search", "retrieve_knowledge_graph"));
    private static final List<Path> corpus = new ArrayList<>();
    private static String queue;
    private static PlanWorkers workers;

    @BeforeAll
    static void startWorkers() throws IOException {
        try (Stream<Path> files = Files.list(PLANS.resolve("compat/stackvm"))) {
            List<Path> all = files.filter(p -> p.getFileName().toString().matches("plan-\\d+\\.json"))
                    .sorted()
                    .toList();
            // every 96th corpus plan by default, every 24th with mvn -Pslow (planvm.tests.full)
            for (int i = 0; i < all.size(); i += Boolean.getBoolean("planvm.tests.full") ? 24 : 96) {
                LoadResult loaded = new PlanLoader().load(all.get(i));
                if (loaded.valid()) {
                    corpus.add(all.get(i));
                    loaded.plan().instructions().forEach(instruction -> {
                        if (instruction instanceof Calling calling) {
                            toolNames.add(calling.tool());
                        }
                    });
                }
            }
        }
        try (Stream<Path> files = Files.list(PLANS)) { // the example plans' tools (plan tools among them)
            for (Path cassette :
                    files.filter(p -> p.toString().endsWith(".cassette.json")).toList()) {
                Path plan = Path.of(cassette.toString().replace(".cassette.json", ".json"));
                LoadResult loaded = Files.exists(plan) ? new PlanLoader().load(plan) : null;
                if (loaded != null && loaded.valid()) {
                    loaded.plan().instructions().forEach(instruction -> {
                        if (instruction instanceof Calling calling) {
                            toolNames.add(calling.tool());
                        }
                    });
                }
            }
        }
        queue = TestTemporal.queue("equivalence");
        workers = PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tools(standIns.tools(toolNames))
                .conditionEvaluator(standIns.conditions())
                .build()
                .start();
    }

    @AfterAll
    static void stopWorkers() {
        workers.close();
    }

    @Test
    void example_plans_replayed_by_their_tools_end_as_locally() throws IOException {
        List<String> compared = new ArrayList<>();
        try (Stream<Path> files = Files.list(PLANS)) {
            for (Path cassetteFile : files.filter(p -> p.toString().endsWith(".cassette.json")
                            && !p.toString().endsWith(".graph.cassette.json"))
                    .sorted()
                    .toList()) {
                Path planFile = Path.of(cassetteFile.toString().replace(".cassette.json", ".json"));
                if (!Files.exists(planFile)) {
                    continue; // a YAML or JavaScript example: compiled by the CLI (TemporalCommandsTest runs it on
                    // Temporal)
                }
                Cassette cassette = Cassette.read(cassetteFile);
                standIns.replay(cassette);
                RunResult local = localVm().run(load(planFile), Map.of(), RunMode.live());
                standIns.replay(cassette);
                PlanResponse remote = TestTemporal.plans(queue).run(request(planFile));
                assertSame(planFile, local, remote);
                compared.add(planFile.getFileName().toString());
            }
        }
        standIns.replay(null);
        assertThat(compared).hasSizeGreaterThanOrEqualTo(5); // every example plan with a cassette
    }

    @Test
    void corpus_plans_end_as_locally() throws IOException {
        standIns.replay(null);
        assertThat(corpus).hasSizeGreaterThan(Boolean.getBoolean("planvm.tests.full") ? 30 : 7);
        for (Path planFile : corpus) {
            RunResult local = localVm().run(load(planFile), Map.of(), RunMode.live());
            PlanResponse remote = TestTemporal.plans(queue).run(request(planFile));
            assertSame(planFile, local, remote);
        }
    }

    @Test
    void a_replay_inside_the_workflow_ends_as_a_local_replay() throws IOException {
        Path planFile = PLANS.resolve("stackvm-tidb-best-practices.json");
        Cassette cassette = Cassette.read(PLANS.resolve("stackvm-tidb-best-practices.cassette.json"));
        standIns.invocations.clear();
        RunResult local = localVm().run(load(planFile), Map.of(), RunMode.replay(cassette, false));
        PlanResponse remote = TestTemporal.plans(queue)
                .run(request(planFile).toBuilder()
                        .mode("replay", cassette.toJson(), false)
                        .build());
        assertSame(planFile, local, remote);
        assertThat(remote.trace().get("mode").asText()).isEqualTo("replay");
        assertThat(standIns.invocations).as("a replay calls no activity").isEmpty();
    }

    private static void assertSame(Path planFile, RunResult local, PlanResponse remote) {
        String plan = planFile.getFileName().toString();
        assertThat(remote.status()).as(plan).isEqualTo(local.status().label());
        assertThat(remote.finalAnswer()).as(plan).isEqualTo(local.finalAnswer());
        assertThat(remote.error() == null ? null : remote.error().describe())
                .as(plan)
                .isEqualTo(local.error() == null ? null : local.error().describe());
        assertThat(remote.error() == null ? null : remote.error().kind())
                .as(plan + ": the kind of failure travels with the response")
                .isEqualTo(local.error() == null ? null : local.error().kind().label());
        assertThat(remote.steps()).as(plan).isEqualTo(local.steps());
        JsonNode remoteSteps = Steps.of(remote.trace());
        assertThat(remoteSteps).as(plan).isEqualTo(Steps.of(local.trace()));
    }

    private static PlanVm localVm() {
        PlanVmBuilder builder =
                PlanVm.builder().tools(standIns.tools(toolNames)).conditionEvaluator(standIns.conditions());
        return builder.build();
    }

    private static Plan load(Path file) {
        return localVm().loader().load(file).planOrThrow();
    }

    private static PlanRequest request(Path file) throws IOException {
        return PlanRequest.live(file.getFileName().toString(), Files.readString(file), Map.of());
    }
}
