package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child run that ended, but whose parent died before committing the plan-tool step that called it (issue
 * 23): a resume of the parent takes the child's stored answer, and nothing of the child runs again — no call
 * made twice live, none served twice from a cassette. The process dies in-process here: an {@link Error}
 * thrown when the parent hears of the child's end, the one moment between the two.
 */
class ChildRunFinishedTest {

    private static final String COUNTER = """
            {"name": "counter", "inputs": {"type": "object", "properties": {"n": {"type": "integer"}}},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"i": 0}, "output_vars": ["a"]}},
               {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"i": "${n}"}, "output_vars": ["b"]}},
               {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a + b}"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "assign", "parameters": {"n": 1}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "counter", "tool_params": {"n": "${n}"}, "output_vars": ["counted"]}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${counted}!"}}]""";

    /** What the process dying looks like to the code it runs: it never returns. */
    private static final class ProcessDied extends Error {
        private static final long serialVersionUID = 1L;
    }

    /**
     * Dies when the run hears that its {@code nth} child ended: after the child's end is stored, before the
     * parent commits the step that called it.
     */
    private static RunListener diesAfterChild(int nth) {
        AtomicInteger ended = new AtomicInteger();
        return new RunListener() {
            @Override
            public void childFinished(int seqNo, String tool, String childRunId, RunStatus status) {
                if (ended.incrementAndGet() == nth) {
                    throw new ProcessDied();
                }
            }
        };
    }

    private final AtomicInteger counted = new AtomicInteger();

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of("count", "counts its calls", (params, call) -> {
                    return TextNode.valueOf("c" + counted.incrementAndGet());
                }))
                .planTool(plan(COUNTER))
                .sequential(true) // the child's two calls answer in order: c1, then c2
                .build();
    }

    /**
     * Starts {@code parent} in {@code mode} until it dies after its {@code nth} child ended; its id, after
     * checking that the child succeeded and the step that called it is not committed.
     */
    private static String diedAfterChild(DurableRuns runs, RunStore store, String parent, RunMode mode, int nth) {
        assertThatThrownBy(() -> runs.start(RunRequest.builder(plan(parent))
                        .mode(mode)
                        .listener(diesAfterChild(nth))
                        .build()))
                .isInstanceOf(ProcessDied.class);
        String id = store.list(10, 0, null).stream()
                .filter(run -> store.caller(run.id()).isEmpty())
                .findFirst()
                .orElseThrow()
                .id();
        List<RunStore.ChildRun> children = store.children(id);
        assertThat(children).hasSize(nth);
        assertThat(children.get(nth - 1).summary().state()).isEqualTo("succeeded");
        assertThat(store.find(id).orElseThrow().steps())
                .as("the plan-tool step is not committed")
                .last()
                .satisfies(step -> assertThat(step.seqNo()).isNotEqualTo(1));
        return id;
    }

    @Test
    void a_replayed_child_that_ended_before_its_parent_committed_is_taken_as_ended_on_resume(@TempDir Path dir) {
        try (PlanVm vm = vm();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            RunMode.Record record = RunMode.record();
            assertThat(vm.run(plan(PARENT), Map.of(), record).finalAnswer().asText())
                    .isEqualTo("c1c2!");
            Cassette cassette = record.recording().cassette();
            assertThat(counted).hasValue(2);
            DurableRuns runs = new DurableRuns(vm, store);

            String parent = diedAfterChild(runs, store, PARENT, RunMode.replay(cassette, false), 1);

            DurableRun resumed = runs.resume(
                    parent,
                    RunRequest.builder().mode(RunMode.replay(cassette, false)).build(),
                    Map.of(),
                    true);
            assertThat(resumed.result().succeeded())
                    .as("%s", resumed.result().error())
                    .isTrue();
            assertThat(resumed.result().finalAnswer().asText()).isEqualTo("c1c2!");
            assertThat(store.children(parent)).as("no second child").hasSize(1);
            assertThat(counted).as("replayed, never called").hasValue(2);
        }
    }

    @Test
    void a_live_child_that_ended_before_its_parent_committed_makes_no_call_again_on_resume(@TempDir Path dir) {
        try (PlanVm vm = vm();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            String parent = diedAfterChild(runs, store, PARENT, RunMode.live(), 1);
            assertThat(counted).hasValue(2);

            DurableRun resumed = runs.resume(parent, RunRequest.builder().build(), Map.of(), true);

            assertThat(resumed.result().finalAnswer().asText()).isEqualTo("c1c2!");
            assertThat(counted).as("the child's calls are not made again").hasValue(2);
            List<RunStore.ChildRun> children = store.children(parent);
            assertThat(children).hasSize(1);
            assertThat(store.find(parent).orElseThrow().steps()).hasSize(3);
        }
    }

    @Test
    void only_the_child_of_the_call_not_committed_is_taken_not_an_earlier_one_of_the_same_call(@TempDir Path dir) {
        String loop = """
                [{"seq_no": 0, "type": "assign", "parameters": {"n": 1, "k": 0}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "counter", "tool_params": {"n": "${n}"}, "output_vars": ["counted"]}},
                 {"seq_no": 2, "type": "assign", "parameters": {"k": "${k + 1}"}},
                 {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${k < 2}", "jump_if_true": 1}},
                 {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${counted}"}}]""";
        try (PlanVm vm = vm();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            // the first child's answer (c1c2) is committed; the process dies after the second child's end
            String parent = diedAfterChild(runs, store, loop, RunMode.live(), 2);
            assertThat(counted).hasValue(4);

            DurableRun resumed = runs.resume(parent, RunRequest.builder().build(), Map.of(), true);

            assertThat(resumed.result().finalAnswer().asText())
                    .as("the second child's answer, the same call with the same params as the first")
                    .isEqualTo("c3c4");
            assertThat(counted).hasValue(4);
            assertThat(store.children(parent)).hasSize(2);
        }
    }
}
