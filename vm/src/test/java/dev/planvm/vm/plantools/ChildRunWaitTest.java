package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRunException;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child run can wait (issue 23): an approval or a {@code human_input} inside a plan tool's child makes the
 * child wait under its own id and the parent wait for it; deciding through the parent's id or the child's
 * continues the child and then the parent, and no committed call runs again.
 */
class ChildRunWaitTest {

    private static final String ASK = """
            {"name": "ask", "inputs": {"type": "object", "properties": {"topic": {"type": "string"}}},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"topic": "${topic}"}, "output_vars": ["n"]}},
               {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "human_input",
                  "tool_params": {"prompt": "Which ${topic}?", "choices": ["red", "blue"]}, "output_vars": ["pick"]}},
               {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${pick}"}, "output_vars": ["up"]}},
               {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${up + n}"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "assign", "parameters": {"t": "colour"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "ask", "tool_params": {"topic": "${t}"}, "output_vars": ["a"]}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a}!"}}]""";

    private final AtomicInteger countCalls = new AtomicInteger();
    private final AtomicInteger upperCalls = new AtomicInteger();

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of("count", "counts", (params, call) -> {
                    countCalls.incrementAndGet();
                    return TextNode.valueOf("1");
                }))
                .tool(Tool.of("upper", "upper-cases text", (params, call) -> {
                    upperCalls.incrementAndGet();
                    return TextNode.valueOf(params.path("text").asText().toUpperCase());
                }))
                .planTool(plan(ASK))
                .build();
    }

    private static String childOf(RunStore store, String parent) {
        return store.children(parent).get(0).summary().id();
    }

    @Test
    void input_asked_in_a_child_makes_the_parent_wait_and_an_answer_through_the_parent_continues_both(
            @TempDir Path dir) {
        try (PlanVm vm = vm();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun parent = runs.start(plan(PARENT), Map.of(), RunMode.live());

            assertThat(parent.result().status()).isEqualTo(RunStatus.WAITING);
            String child = childOf(store, parent.id());
            assertThat(store.find(child).orElseThrow().status()).isEqualTo(RunStatus.WAITING);
            assertThat(parent.result().error().seqNo()).isEqualTo(1);
            assertThat(parent.result().error().message())
                    .contains("child run " + child)
                    .contains("plan tool 'ask'")
                    .contains("its seq_no 1")
                    .contains("waiting for input: Which colour?");
            assertThat(parent.result().pending().tool()).isEqualTo("human_input");
            assertThat(parent.result().error().kind())
                    .as("the parent waits for the child's input, not for an approval")
                    .isEqualTo(FailureKind.WAITING_FOR_INPUT);
            assertThat(store.pendingInput(child)).isPresent();
            assertThat(runs.pendingInput(parent.id()).seqNo()).isEqualTo(1);
            assertThatThrownBy(() -> runs.resume(parent.id(), RunMode.live(), Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("in its child run " + child)
                    .hasMessageContaining("planvm answer " + parent.id());

            assertThatThrownBy(() -> runs.answer(
                            parent.id(),
                            null,
                            TextNode.valueOf("green"),
                            RunRequest.builder().build(),
                            Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("keeps waiting");
            DurableRun answered = runs.answer(
                    parent.id(),
                    null,
                    TextNode.valueOf("blue"),
                    RunRequest.builder().build(),
                    Map.of());

            assertThat(answered.id()).isEqualTo(parent.id());
            assertThat(answered.result().finalAnswer().asText()).isEqualTo("BLUE1!");
            assertThat(countCalls)
                    .as("the child's committed call is not made again")
                    .hasValue(1);
            assertThat(upperCalls).hasValue(1);
            assertThat(store.find(child).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(store.children(parent.id()))
                    .as("the same child run, continued")
                    .hasSize(1);
        }
    }

    @Test
    void an_approval_in_a_child_makes_the_parent_wait_and_approving_the_child_continues_both(@TempDir Path dir) {
        String noInput = """
                {"name": "ask", "inputs": {"type": "object", "properties": {"topic": {"type": "string"}}},
                 "plan": [
                   {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"topic": "${topic}"}, "output_vars": ["n"]}},
                   {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"again": "${n}"}, "output_vars": ["pick"]}},
                   {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${pick}"}, "output_vars": ["up"]}},
                   {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${up + n}"}}]}""";
        try (PlanVm vm = PlanVm.builder()
                        .tool(Tool.of("count", "counts", (params, call) -> {
                            countCalls.incrementAndGet();
                            return TextNode.valueOf("b");
                        }))
                        .tool(Tool.of("upper", "upper-cases text", (params, call) -> {
                            upperCalls.incrementAndGet();
                            return TextNode.valueOf(params.path("text").asText().toUpperCase());
                        }))
                        .planTool(plan(noInput))
                        .build();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun parent = runs.start(RunRequest.builder(plan(PARENT))
                    .options(new RunOptions(List.of(), List.of(), List.of("upper"), null, null))
                    .build());

            assertThat(parent.result().status()).isEqualTo(RunStatus.WAITING);
            String child = childOf(store, parent.id());
            assertThat(parent.result().error().message())
                    .contains("child run " + child)
                    .contains("its seq_no 2")
                    .contains("waiting for approval to call tool 'upper'");
            assertThat(store.find(child).orElseThrow().pendingApproval())
                    .hasValueSatisfying(a -> assertThat(a.tool()).isEqualTo("upper"));
            assertThat(store.find(parent.id()).orElseThrow().pendingApproval()).isEmpty();
            assertThat(upperCalls).hasValue(0);

            DurableRun approved =
                    runs.approve(child, true, "fine", RunRequest.builder().build(), Map.of());

            assertThat(approved.id()).as("the waiting parent continues").isEqualTo(parent.id());
            assertThat(approved.result().finalAnswer().asText()).isEqualTo("Bb!");
            assertThat(countCalls).as("no committed call again").hasValue(2);
            assertThat(upperCalls).hasValue(1);
            assertThat(store.find(child).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
        }
    }

    @Test
    void a_denial_in_a_child_fails_the_plan_tool_call_of_the_parent(@TempDir Path dir) {
        try (PlanVm vm = vm();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store);
            DurableRun parent = runs.start(RunRequest.builder(plan(PARENT))
                    .options(new RunOptions(List.of(), List.of(), List.of("count"), null, null))
                    .build());
            assertThat(parent.result().status()).isEqualTo(RunStatus.WAITING);

            DurableRun denied = runs.approve(
                    parent.id(), false, "not now", RunRequest.builder().build(), Map.of());

            assertThat(denied.result().succeeded()).isFalse();
            assertThat(denied.result().error().seqNo()).isEqualTo(1);
            assertThat(denied.result().error().message())
                    .contains("plan tool 'ask' failed")
                    .contains("not now");
            assertThat(countCalls).hasValue(0);
        }
    }
}
