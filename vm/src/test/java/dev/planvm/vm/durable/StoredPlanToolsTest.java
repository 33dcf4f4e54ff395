package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored run keeps the plan tools it started with, by content (issue 36 item 13): its resume, answer and approval
 * run them as they were, in a process started without the plan-tool folder, or after the folder was edited; a
 * rerun, a new run, takes the process's plan tools as they are now and the kept ones for those it lacks.
 */
class StoredPlanToolsTest {

    private static final String WORKER = """
            {"name": "worker", "inputs": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
             "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${n * 2}"}}]}""";

    /** Asks for n (the run waits), then has the plan tool work on it. */
    private static final String ASK_THEN_WORK = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "n?", "schema": {"type": "integer"}}, "output_vars": "n"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "worker", "tool_params": {"n": "${n}"}, "output_vars": "w"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${w}"}}]""";

    /** A flaky step first (the run fails, then is resumed), then the plan tool. */
    private static final String FLAKY_THEN_WORK = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "flaky", "tool_params": {}, "output_vars": "n"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "worker", "tool_params": {"n": "${n}"}, "output_vars": "w"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${w}"}}]""";

    @TempDir
    Path dir;

    private final AtomicBoolean broken = new AtomicBoolean(true);

    private PlanVm vm(Path planTools) {
        var builder = PlanVm.builder().tool(Tool.of("flaky", "fails while broken", (p, c) -> {
            if (broken.get()) {
                throw ToolException.permanent("not yet");
            }
            return IntNode.valueOf(21);
        }));
        return (planTools == null ? builder : builder.planTools(planTools)).build();
    }

    private Path folder() throws Exception {
        Path tools = dir.resolve("tools");
        Files.createDirectories(tools);
        Files.writeString(tools.resolve("worker.json"), WORKER);
        return tools;
    }

    private static Plan plan(PlanVm vm, String json) {
        return vm.loader().load(json, "parent.json").planOrThrow();
    }

    @Test
    void an_answer_in_a_process_without_the_folder_runs_the_plan_tool_the_run_started_with() throws Exception {
        Path tools = folder();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            String id;
            try (PlanVm first = vm(tools)) {
                DurableRun run =
                        new DurableRuns(first, store).start(plan(first, ASK_THEN_WORK), Map.of(), RunMode.live());
                assertThat(run.result().status()).isEqualTo(RunStatus.WAITING);
                id = run.id();
            }
            Files.writeString(tools.resolve("worker.json"), WORKER.replace("n * 2", "n * 1000")); // edited later
            try (PlanVm bare = vm(null)) {
                DurableRun answered = new DurableRuns(bare, store)
                        .answer(
                                id,
                                null,
                                IntNode.valueOf(5),
                                RunRequest.builder().build(),
                                Map.of());
                assertThat(answered.result().status())
                        .as(String.valueOf(answered.result().error()))
                        .isEqualTo(RunStatus.SUCCEEDED);
                assertThat(answered.result().finalAnswer()).isEqualTo(IntNode.valueOf(10));
            }
            assertThat(store.children(id)).hasSize(1);
        }
    }

    @Test
    void a_resume_runs_the_plan_tools_as_they_were_and_a_rerun_needs_no_folder() throws Exception {
        Path tools = folder();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            String id;
            try (PlanVm first = vm(tools)) {
                DurableRun run =
                        new DurableRuns(first, store).start(plan(first, FLAKY_THEN_WORK), Map.of(), RunMode.live());
                assertThat(run.result().status()).isEqualTo(RunStatus.FAILED);
                id = run.id();
            }
            broken.set(false);
            Files.writeString(tools.resolve("worker.json"), WORKER.replace("n * 2", "n * 1000"));
            try (PlanVm edited = vm(tools)) {
                DurableRuns runs = new DurableRuns(edited, store);
                DurableRun resumed = runs.resume(id, RunMode.live(), Map.of());
                assertThat(resumed.result().finalAnswer())
                        .as(String.valueOf(resumed.result().error()))
                        .isEqualTo(IntNode.valueOf(42));
                DurableRun rerun = runs.rerun(id, 1, Map.of("n", IntNode.valueOf(1)), RunMode.live());
                assertThat(rerun.result().finalAnswer())
                        .as("a rerun is a new run: the plan tool as the folder has it now (fixed, say)")
                        .isEqualTo(IntNode.valueOf(1000));
                try (PlanVm bare = vm(null)) {
                    DurableRuns without = new DurableRuns(bare, store);
                    assertThat(without.run(without.createRerun(
                                            rerun.id(),
                                            1,
                                            Map.of(),
                                            null,
                                            RunRequest.builder().build()))
                                    .result()
                                    .finalAnswer())
                            .as("without the folder, a rerun takes the plan tools its run (the rerun above, with the"
                                    + " edited one) started with; n is 21 again: the edit was no step's")
                            .isEqualTo(IntNode.valueOf(21_000));
                }
                DurableRun fresh = runs.start(plan(edited, FLAKY_THEN_WORK), Map.of(), RunMode.live());
                assertThat(fresh.result().finalAnswer())
                        .as("a new run takes the folder as it is now")
                        .isEqualTo(IntNode.valueOf(21_000));
            }
        }
    }

    @Test
    void a_vm_derived_with_stored_plan_tools_keeps_its_other_plan_tools_and_the_reached_ones_are_what_is_kept()
            throws Exception {
        Path tools = folder();
        Files.writeString(tools.resolve("shout.json"), """
                {"name": "shout", "inputs": {"type": "object", "properties": {"text": {"type": "string"}}},
                 "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${text}!"}}]}""");
        try (PlanVm vm = vm(tools)) {
            Plan parent = plan(vm, FLAKY_THEN_WORK);
            assertThat(vm.planToolsFor(parent))
                    .extracting(p -> p.signature().orElseThrow().name())
                    .containsExactly("worker");
            Plan tripled = vm.loader()
                    .load(WORKER.replace("n * 2", "n * 3"), "old-worker.json")
                    .planOrThrow();
            PlanVm derived = vm.withPlanTools(java.util.List.of(tripled));
            assertThat(vm.withPlanTools(java.util.List.of(tripled))).isSameAs(derived);
            assertThat(derived.tools().find("shout")).isPresent();
            broken.set(false);
            assertThat(derived.run(parent, Map.of()).finalAnswer()).isEqualTo(IntNode.valueOf(63));
            assertThat(vm.run(parent, Map.of()).finalAnswer()).isEqualTo(IntNode.valueOf(42));
            assertThat(vm.withPlanTools(java.util.List.of())).isSameAs(vm);
        }
    }
}
