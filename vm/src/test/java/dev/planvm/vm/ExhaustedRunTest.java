package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Custom;
import dev.planvm.vm.batch.Batch;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that exhausts the stack or the heap fails with a sentence naming the step; the error never
 * escapes the VM, a batch reports that plan as failed and runs the others, and a durable run is
 * stored as failed. (A real {@code OutOfMemoryError} under a small heap is exercised end to end by
 * the CLI's {@code HostilePlansChildJvmTest}; here a handler recurses without end, or throws the
 * error the JVM would.)
 */
class ExhaustedRunTest {

    @TempDir
    Path dir;

    /** Recurses until the stack overflows. */
    private static final InstructionHandler<Custom> RECURSE = (instruction, step) -> Outcome.jumpTo(depth(0));

    private static int depth(int n) {
        return depth(n + 1) + 1;
    }

    /** Fails the way an allocation fails when the heap is exhausted. */
    private static final InstructionHandler<Custom> EXHAUST = (instruction, step) -> {
        throw new OutOfMemoryError("Java heap space");
    };

    private static final String DEEP = """
            [{"seq_no": 0, "type": "assign", "parameters": {"x": 1}},
             {"seq_no": 1, "type": "recurse", "parameters": {}}]""";

    private static final String HUNGRY = """
            [{"seq_no": 0, "type": "assign", "parameters": {"x": "kept until the heap ran out"}},
             {"seq_no": 1, "type": "exhaust", "parameters": {}}]""";

    private final PlanVm vm = PlanVm.builder()
            .handler("recurse", RECURSE)
            .handler("exhaust", EXHAUST)
            .build();

    private RunResult run(String plan) {
        return vm.run(vm.loader().load(plan, "p").planOrThrow(), Map.of());
    }

    @Test
    void a_stack_overflow_in_a_step_fails_the_run_with_a_sentence_naming_the_step() {
        RunResult result = run(DEEP);

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().describe())
                .isEqualTo("seq_no 1 (recurse): the run overflowed the stack (a value or"
                        + " expression nested too deep for this JVM's -Xss)");
        assertThat(result.trace().path("status").asText()).isEqualTo("failed");
    }

    @Test
    void after_a_stack_overflow_the_same_vm_runs_the_next_plan_normally() {
        RunResult overflowed = run(DEEP);
        RunResult next = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"n": 20}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${n + 22}"}}]""");

        assertThat(overflowed.error().describe())
                .doesNotContain("\n")
                .doesNotContain("\tat ")
                .doesNotContain("StackOverflowError");
        assertThat(next.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(next.finalAnswer().intValue()).isEqualTo(42);
        assertThat(run(DEEP).error().describe()).startsWith("seq_no 1 (recurse): the run overflowed the stack");
    }

    @Test
    void running_out_of_memory_fails_the_run_and_drops_what_it_held() {
        RunResult result = run(HUNGRY);

        assertThat(result.error().describe())
                .isEqualTo("seq_no 1 (exhaust): the run ran out of memory (Java heap space)"
                        + " before any limit stopped it; lower --max-run-memory, or give the JVM more (-Xmx)");
        assertThat(result.variables()).isEmpty();
        assertThat(result.trace().path("steps").size()).isZero();
    }

    @Test
    void a_batch_reports_an_exhausted_plan_as_failed_and_runs_every_other_plan() throws Exception {
        Path deep = Files.writeString(dir.resolve("deep.json"), DEEP);
        Path hungry = Files.writeString(dir.resolve("hungry.json"), HUNGRY);
        Path fine = Files.writeString(dir.resolve("fine.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": 42}}]""");

        List<PlanOutcome> outcomes = Batch.builder(vm).concurrency(1).build().run(List.of(deep, hungry, fine));

        assertThat(outcomes)
                .extracting(PlanOutcome::status)
                .containsExactly(RunStatus.FAILED, RunStatus.FAILED, RunStatus.SUCCEEDED);
        assertThat(outcomes.get(0).error()).contains("the run overflowed the stack");
        assertThat(outcomes.get(1).error()).contains("the run ran out of memory");
        assertThat(outcomes.get(2).finalAnswer().intValue()).isEqualTo(42);
    }

    @Test
    void a_durable_run_that_runs_out_of_memory_is_stored_as_failed_not_running() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun run = new DurableRuns(vm, store)
                    .start(vm.loader().load(HUNGRY, "p").planOrThrow(), Map.of(), RunMode.live());

            assertThat(run.result().status()).isEqualTo(RunStatus.FAILED);
            assertThat(store.find(run.id()).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        }
    }
}
