package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failure handled by on_error, or passed by a run that keeps going, is committed with its step. */
class OnErrorDurableTest {

    /** seq_no 0 fails and is handled; seq_no 1 fails the first session; seq_no 2 reads what seq_no 0 wrote. */
    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "down", "output_vars": "docs",
               "on_error": {"value": "no docs"}}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "later", "output_vars": "more"}},
             {"seq_no": 2, "type": "assign", "parameters":
               {"final_answer": "${docs}, ${more}, ${last_error.tool}: ${last_error.message}"}}]""";

    @TempDir
    Path dir;

    private RunStore store;
    private final List<String> calls = new ArrayList<>();
    private final AtomicBoolean laterBroken = new AtomicBoolean(true);

    @BeforeEach
    void open() {
        store = RunStore.open(dir.resolve("runs.db"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of("down", "", (p, c) -> {
                    calls.add("down");
                    throw ToolException.permanent("503");
                }))
                .tool(Tool.of("later", "", (p, c) -> {
                    calls.add("later");
                    if (laterBroken.get()) {
                        throw ToolException.permanent("not yet");
                    }
                    return TextNode.valueOf("more");
                }))
                .build();
    }

    @Test
    void a_resumed_run_sees_the_on_error_value_and_last_error_its_first_session_committed() {
        PlanVm vm = vm();
        Plan plan = vm.loader().load(PLAN, "durable.json").planOrThrow();
        DurableRun first = new DurableRuns(vm, store).start(plan, Map.of(), RunMode.live());
        assertThat(first.result().status()).isEqualTo(RunStatus.FAILED);
        assertThat(first.result().error().seqNo()).isEqualTo(1);
        StoredRun stored = store.find(first.id()).orElseThrow();
        assertThat(stored.steps()).extracting(StoredStep::seqNo).containsExactly(0);
        assertThat(stored.steps()
                        .get(0)
                        .writes()
                        .path("last_error")
                        .path("kind")
                        .asText())
                .isEqualTo("tool_error");
        assertThat(stored.steps().get(0).trace().path("handled").asText()).isEqualTo("value");

        laterBroken.set(false);
        RunResult resumed = new DurableRuns(vm, store)
                .resume(first.id(), RunMode.live(), Map.of())
                .result();
        assertThat(resumed.finalAnswer().asText()).isEqualTo("no docs, more, down: tool 'down' failed: 503");
        assertThat(calls).containsExactlyInAnyOrder("down", "later", "later"); // the handled call is not made again
    }

    @Test
    void a_run_that_keeps_going_is_resumed_keeping_going() {
        PlanVm vm = vm();
        Plan plan = vm.loader().load("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "later", "output_vars": "a"}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "went on"}}]""", "keep.json").planOrThrow();
        DurableRun run = new DurableRuns(vm, store)
                .start(RunRequest.builder(plan)
                        .options(RunOptions.DEFAULT.withKeepGoing(true))
                        .build());
        assertThat(run.result().finalAnswer().asText()).isEqualTo("went on");
        assertThat(run.result().failedSteps()).hasSize(1);
        StoredRun stored = store.find(run.id()).orElseThrow();
        assertThat(stored.options().keepGoing()).isTrue();
        assertThat(stored.steps()).extracting(StoredStep::seqNo).containsExactly(0, 1);
        assertThat(stored.steps().get(0).trace().path("handled").asText()).isEqualTo("keep_going");
    }

    @Test
    void a_run_that_kept_going_past_a_failed_step_is_stored_completed_with_failures_and_has_nothing_to_resume() {
        PlanVm vm = vm();
        Plan plan = vm.loader().load("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "later", "output_vars": "a"}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "went on"}}]""", "keep.json").planOrThrow();
        DurableRuns runs = new DurableRuns(vm, store);
        DurableRun run = runs.start(RunRequest.builder(plan)
                .options(RunOptions.DEFAULT.withKeepGoing(true))
                .build());
        assertThat(run.result().status()).isEqualTo(RunStatus.COMPLETED_WITH_FAILURES);
        StoredRun stored = store.find(run.id()).orElseThrow();
        assertThat(stored.status()).isEqualTo(RunStatus.COMPLETED_WITH_FAILURES);
        assertThat(stored.finishedAt()).isNotNull();
        assertThat(store.list(10, 0, RunStatus.COMPLETED_WITH_FAILURES))
                .extracting(RunSummary::id, RunSummary::state)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(run.id(), "completed_with_failures"));
        assertThat(store.list(10, 0, RunStatus.SUCCEEDED)).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> runs.resume(run.id(), RunMode.live(), Map.of()))
                .isInstanceOf(DurableRunException.class)
                .hasMessage("run " + run.id() + " completed with failed steps (seq_no 0), which it went on past:"
                        + " nothing to resume; planvm rerun " + run.id() + " --from SEQ runs it again from a failed"
                        + " step");
        assertThat(store.find(run.id()).orElseThrow().sessions()).isEqualTo(1);
        assertThat(calls).containsExactly("later");
    }
}
