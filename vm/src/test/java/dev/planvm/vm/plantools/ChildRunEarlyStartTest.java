package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.EarlyStarts;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.RunSession;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plan-tool calls start only at their turn, in every run: a call started early and then discarded would
 * leave a stored child run that looks real (issue 23), and would spend steps of the run tree's shared step
 * budget that a sequential run never spends (issue 36 item 5). They are no barrier: a later independent
 * call still starts beside them, in a complete plan and in a plan still streaming (one rule,
 * {@code EarlyStartRule}). A plan still streaming (an agent's {@code ask}) starts no plan-tool call either, and the run of its session takes no early answer for one: the call goes to the run's plan-tool
 * link, which stores its child run (issue 36 item 15).
 */
class ChildRunEarlyStartTest {

    private static final String SHOUT = """
            {"name": "shout", "inputs": {"type": "object", "properties": {"text": {"type": "string"}}},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${text}"}, "output_vars": ["up"]}},
               {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${up}"}}]}""";

    /** seq_no 0 fails; seq_no 1, independent of it, is a read-only plan-tool call: discarded when started early. */
    private static final String PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {}, "output_vars": ["a"]}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "hi"}, "output_vars": ["b"]}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${b}"}}]""";

    private final AtomicInteger upperCalls = new AtomicInteger();
    private final CountDownLatch childCalled = new CountDownLatch(1);

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    /** @param waitSeconds how long {@code fail} gives a child started early to make its call before it fails */
    private PlanVm vm(int waitSeconds) {
        return PlanVm.builder()
                .tool(Tool.of("upper", "upper-cases text", (params, call) -> {
                    upperCalls.incrementAndGet();
                    childCalled.countDown();
                    return TextNode.valueOf(params.path("text").asText().toUpperCase());
                }))
                .tool(Tool.of("fail", "fails", (params, call) -> {
                    try {
                        childCalled.await(waitSeconds, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw ToolException.permanent("no luck");
                }))
                .planTool(plan(SHOUT))
                .build();
    }

    @Test
    void a_run_that_stores_nothing_starts_no_plan_tool_call_early_either() {
        try (PlanVm vm = vm(1)) {
            RunResult result = vm.run(plan(PARENT), Map.of());
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error().seqNo()).isZero();
        }
        assertThat(upperCalls)
                .as("the child never started: its turn never came")
                .hasValue(0);
    }

    @Test
    void a_call_after_a_plan_tool_call_still_starts_beside_it() throws Exception {
        CountDownLatch probed = new CountDownLatch(1);
        AtomicInteger probedWhileChildRan = new AtomicInteger();
        try (PlanVm vm = PlanVm.builder()
                .tool(Tool.of("upper", "upper-cases text, once probe has run (10 s at most)", (params, call) -> {
                    try {
                        if (probed.await(10, TimeUnit.SECONDS)) {
                            probedWhileChildRan.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf(params.path("text").asText().toUpperCase());
                }))
                .tool(Tool.of("probe", "counts down", (params, call) -> {
                    probed.countDown();
                    return TextNode.valueOf("p");
                }))
                .planTool(plan(SHOUT))
                .build()) {
            RunResult result = vm.run(plan("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "hi"}, "output_vars": ["a"]}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "probe", "tool_params": {}, "output_vars": ["b"]}},
                     {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a}${b}"}}]"""), Map.of());
            assertThat(result.finalAnswer().asText()).isEqualTo("HIp");
        }
        assertThat(probedWhileChildRan)
                .as("probe started early, while the child ran")
                .hasValue(1);
    }

    @Test
    void a_plan_tool_call_of_a_streamed_plan_is_a_stored_child_run_of_the_run_not_an_early_answer(@TempDir Path dir)
            throws Exception {
        Plan streamed = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "hi"}, "output_vars": ["b"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${b}"}}]""");
        try (PlanVm vm = vm(1);
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            RunSession session = vm.session(RunMode.live());
            EarlyStarts early = session.startEarly(Map.of());
            streamed.instructions().forEach(early::arrived);
            early.finish();
            // a plan-tool call started here would run its child now, unstored: give it the time to answer
            childCalled.await(2, TimeUnit.SECONDS);
            DurableRun run = new DurableRuns(vm, store)
                    .start(RunRequest.builder(streamed).session(session).build());
            assertThat(run.result().succeeded()).isTrue();
            assertThat(run.result().finalAnswer()).isEqualTo(TextNode.valueOf("HI"));
            assertThat(store.children(run.id()))
                    .as("the call is a stored child run of the run")
                    .hasSize(1);
            assertThat(early.calls())
                    .as("no plan-tool call starts while the plan streams")
                    .isEmpty();
            assertThat(session.discardEarly()).isZero();
        }
        assertThat(upperCalls).as("the child ran once, as the stored child").hasValue(1);
    }

    @Test
    void a_call_after_a_plan_tool_call_of_a_streamed_plan_still_starts_while_it_streams() throws Exception {
        Plan streamed = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "hi"}, "output_vars": ["a"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "x"}, "output_vars": ["b"]}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${a}"}, "output_vars": ["c"]}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${a}${b}${c}"}}]""");
        try (PlanVm vm = vm(1)) {
            RunSession session = vm.session(RunMode.live());
            EarlyStarts early = session.startEarly(Map.of());
            streamed.instructions().forEach(early::arrived);
            early.finish();
            assertThat(early.calls())
                    .as("as in a run of the complete plan: the plan-tool call at its turn, the independent call early,"
                            + " the call reading the plan tool's answer at its turn")
                    .extracting(EarlyStarts.EarlyCall::seqNo)
                    .containsExactly(1);
            RunResult result =
                    vm.run(RunRequest.builder(streamed).session(session).build());
            assertThat(result.finalAnswer()).isEqualTo(TextNode.valueOf("HIXHI"));
            assertThat(session.discardEarly()).isZero();
        }
        assertThat(upperCalls)
                .as("the early call was used: upper ran once in the child, twice in the run")
                .hasValue(3);
    }

    @Test
    void a_stored_run_starts_no_plan_tool_call_early_so_a_discarded_call_leaves_no_child_run(@TempDir Path dir) {
        try (PlanVm vm = vm(1);
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRun parent = new DurableRuns(vm, store).start(plan(PARENT), Map.of(), RunMode.live());
            assertThat(parent.result().succeeded()).isFalse();
            assertThat(parent.result().error().seqNo()).isZero();
            assertThat(store.children(parent.id())).isEmpty();
            assertThat(store.list(10)).hasSize(1);
        }
        assertThat(upperCalls).hasValue(0);
    }
}
