package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DurableRuns#create} stores a run and runs nothing; {@link DurableRuns#run} runs it; the plan is checked once. */
class CreateThenRunTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "params": {"t": "${name}"}, "output_vars": "r"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${r}!"}}]""";

    @TempDir
    Path dir;

    private final AtomicInteger calls = new AtomicInteger();
    /** How often the VM asked the tool its canonical name: each check of the plan asks once per call of it. */
    private final AtomicInteger nameLookups = new AtomicInteger();

    private PlanVm vm() {
        Tool echo = new Tool() {
            @Override
            public String name() {
                return "echo";
            }

            @Override
            public String canonicalName() {
                nameLookups.incrementAndGet();
                return "echo";
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                calls.incrementAndGet();
                return params.path("t");
            }
        };
        return PlanVm.builder().sequential(true).tool(echo).build();
    }

    private static RunRequest request(PlanVm vm) {
        Plan plan = vm.loader().load(PLAN, "plan.json").planOrThrow();
        return RunRequest.builder(plan)
                .inputs(Map.of("name", TextNode.valueOf("Ann")))
                .build();
    }

    @Test
    void create_stores_the_run_and_runs_nothing_until_run_is_called_with_its_id() {
        PlanVm vm = vm();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            String id = runs.create(request(vm));

            StoredRun created = store.find(id).orElseThrow();
            assertThat(created.steps()).isEmpty();
            assertThat(created.options().clock())
                    .as("the clock is fixed when the run is stored")
                    .isNotNull();
            assertThat(calls).as("nothing ran").hasValue(0);

            DurableRun run = runs.run(id);
            assertThat(run.id()).isEqualTo(id);
            assertThat(run.result().finalAnswer().asText()).isEqualTo("Ann!");
            assertThat(calls).hasValue(1);
            StoredRun stored = store.find(id).orElseThrow();
            assertThat(stored.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(stored.steps()).hasSize(2);
            assertThat(stored.options().clock()).isEqualTo(created.options().clock());

            assertThatThrownBy(() -> runs.run(id))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessage("run " + id + " was not created here or has run already: resume it (planvm resume " + id
                            + ")");
        }
    }

    @Test
    void a_plan_that_cannot_run_here_is_refused_by_create_and_nothing_is_stored() {
        PlanVm vm = vm();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            RunRequest denied =
                    request(vm).withOptions(new RunOptions(List.of(), List.of("echo"), List.of(), null, null));
            assertThatThrownBy(() -> new DurableRuns(vm, store).create(denied))
                    .isInstanceOf(PlanRejectedException.class)
                    .hasMessageContaining("seq_no 0: tool 'echo' is denied by this run's tool policy");
            assertThat(store.list(10)).isEmpty();
        }
    }

    @Test
    void a_durable_run_checks_its_plan_once_as_a_run_without_store_does() {
        PlanVm plain = vm();
        plain.run(request(plain));
        int oneCheck = nameLookups.getAndSet(0);
        assertThat(oneCheck).isPositive();

        PlanVm vm = vm();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun run = new DurableRuns(vm, store).start(request(vm));
            assertThat(run.result().succeeded()).isTrue();
        }
        assertThat(nameLookups).as("the durable run checked its plan once").hasValue(oneCheck);
    }

    @Test
    void a_create_in_another_mode_stores_that_mode() {
        PlanVm vm = vm();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            String id = runs.create(
                    request(vm).toBuilder().mode(RunMode.dryRun(false)).build());
            assertThat(store.find(id).orElseThrow().mode()).isEqualTo("dry-run");
            assertThat(runs.run(id).result().succeeded()).isTrue();
            assertThat(calls).as("a dry run calls nothing").hasValue(0);
        }
    }
}
