package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop request for a parent reaches into its running child run (issue 23): the child stops at its next
 * commit point and is stored as its parent is, interrupted (a resume continues it) or cancelled (failed).
 */
class ChildRunStopTest {

    private static final String SLOW = """
            {"name": "slow", "inputs": {"type": "object"},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "block", "tool_params": {}, "output_vars": ["a"]}},
               {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "after", "tool_params": {"a": "${a}"}, "output_vars": ["b"]}},
               {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a + b}"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow", "tool_params": {}, "output_vars": ["x"]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${x}"}}]""";

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger blockCalls = new AtomicInteger();
    private final AtomicInteger afterCalls = new AtomicInteger();

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of("block", "waits to be released", (params, call) -> {
                    blockCalls.incrementAndGet();
                    entered.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf("a");
                }))
                .tool(Tool.of("after", "answers b", (params, call) -> {
                    afterCalls.incrementAndGet();
                    return TextNode.valueOf("b");
                }))
                .planTool(plan(SLOW))
                .build();
    }

    /** Starts the parent, stops it with {@code stop} while its child's first call runs, and returns the run. */
    private DurableRun stopped(DurableRuns runs, java.util.function.Consumer<RunControl> stop) throws Exception {
        RunControl control = new RunControl();
        CompletableFuture<DurableRun> run = CompletableFuture.supplyAsync(() ->
                runs.start(RunRequest.builder(plan(PARENT)).control(control).build()));
        assertThat(entered.await(60, TimeUnit.SECONDS)).isTrue();
        stop.accept(control);
        release.countDown();
        return run.get(60, TimeUnit.SECONDS);
    }

    @Test
    void interrupting_the_parent_interrupts_its_child_and_a_resume_continues_the_child(@TempDir Path dir)
            throws Exception {
        try (PlanVm vm = vm();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun parent = stopped(runs, control -> control.interrupt("shutting down"));

            assertThat(parent.result().status()).isEqualTo(RunStatus.INTERRUPTED);
            assertThat(parent.result().error().seqNo()).isEqualTo(0);
            assertThat(afterCalls).as("the child stopped before its next step").hasValue(0);
            List<RunStore.ChildRun> children = store.children(parent.id());
            assertThat(children).singleElement().satisfies(child -> {
                assertThat(child.summary().state()).isEqualTo("interrupted");
                assertThat(child.summary().steps()).isEqualTo(1);
            });
            assertThat(store.find(parent.id()).orElseThrow().steps()).isEmpty();

            DurableRun resumed = runs.resume(parent.id(), RunMode.live(), Map.of());
            assertThat(resumed.result().finalAnswer().asText()).isEqualTo("ab");
            assertThat(blockCalls)
                    .as("the child's committed call is not made again")
                    .hasValue(1);
            assertThat(afterCalls).hasValue(1);
            assertThat(store.children(parent.id()))
                    .singleElement()
                    .satisfies(child -> assertThat(child.summary().state()).isEqualTo("succeeded"));
        }
    }

    @Test
    void cancelling_the_parent_cancels_its_child(@TempDir Path dir) throws Exception {
        try (PlanVm vm = vm();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun parent = stopped(new DurableRuns(vm, store), control -> control.cancel("no longer needed"));

            assertThat(parent.result().status()).isEqualTo(RunStatus.FAILED);
            assertThat(parent.result().error().kind()).isEqualTo(FailureKind.CANCELLED);
            assertThat(parent.result().error().message()).contains("cancelled").contains("no longer needed");
            assertThat(afterCalls).hasValue(0);
            String childId = store.children(parent.id()).get(0).summary().id();
            assertThat(store.find(childId).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
            assertThat(store.find(childId).orElseThrow().error().path("message").asText())
                    .contains("cancelled");
        }
    }
}
