package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Which calls of a complete plan a run starts ahead of their turn (the VM's speculator), told by
 * {@link RunResult#earlyCalls()} and the order the tools were called in: independent calls,
 * values forwarded through an answered call and an assign evaluated ahead, side effects as
 * barriers, values that fail ahead, early calls that fail, and loops re-entering a block.
 */
class EarlyCallsRunTest {

    /** Every call made, as {@code tool(q)}, in the order the tools were invoked. */
    private final List<String> invoked = new CopyOnWriteArrayList<>();

    private Tool tool(String name, boolean sideEffects, Function<String, JsonNode> answer) {
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean hasSideEffects() {
                return sideEffects;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                String q = params.path("q").asText();
                invoked.add(name + "(" + q + ")");
                return answer.apply(q);
            }
        };
    }

    private Tool search() {
        return tool("search", false, q -> TextNode.valueOf("s(" + q + ")"));
    }

    private PlanVmBuilder vm() {
        return PlanVm.builder()
                .tool(search())
                .tool(tool("send", true, q -> TextNode.valueOf("sent(" + q + ")")))
                .tool(tool("wordy", false, q -> TextNode.valueOf("w".repeat(40))))
                .tool(tool("broken", false, q -> {
                    throw new IllegalStateException("broken on purpose");
                }))
                .retryPolicy(RetryPolicy.NONE);
    }

    private static String call(int seqNo, String tool, String q, String out) {
        return "{\"seq_no\": " + seqNo + ", \"type\": \"calling\", \"parameters\": {\"tool_name\": \"" + tool
                + "\", \"tool_params\": {\"q\": \"" + q + "\"}, \"output_vars\": \"" + out + "\"}}";
    }

    private static String assign(int seqNo, String name, String value) {
        return "{\"seq_no\": " + seqNo + ", \"type\": \"assign\", \"parameters\": {\"" + name + "\": \"" + value
                + "\"}}";
    }

    private static RunResult run(PlanVm vm, String... instructions) {
        Plan plan = vm.loader()
                .load("[" + String.join(",", instructions) + "]", "p.json")
                .planOrThrow();
        return vm.run(plan, Map.of());
    }

    @Test
    void an_independent_call_starts_ahead_and_its_answer_is_used_at_its_turn() {
        RunResult result = run(
                vm().build(),
                call(0, "search", "a", "a"),
                call(1, "search", "b", "b"),
                assign(2, "final_answer", "${a} ${b}"));

        assertThat(result.finalAnswer().asText()).isEqualTo("s(a) s(b)");
        assertThat(result.earlyCalls()).isEqualTo(new RunResult.EarlyCalls(1, 1, 0));
        assertThat(invoked).containsExactlyInAnyOrder("search(a)", "search(b)");
    }

    @Test
    void a_call_reading_an_answer_through_an_assign_starts_once_that_answer_is_known() {
        RunResult result = run(
                vm().build(),
                call(0, "search", "a", "a"),
                call(1, "search", "b", "b"),
                assign(2, "t", "${a}!"),
                call(3, "search", "${t}", "c"),
                assign(4, "final_answer", "${b} ${c}"));

        assertThat(result.finalAnswer().asText()).isEqualTo("s(b) s(s(a)!)");
        assertThat(result.earlyCalls())
                .as("seq_no 1 and 3 ahead, both used")
                .isEqualTo(new RunResult.EarlyCalls(2, 2, 0));
        assertThat(invoked.indexOf("search(s(a)!)")).isGreaterThan(invoked.indexOf("search(a)"));
    }

    @Test
    void no_call_after_a_side_effect_starts_before_it_and_the_side_effect_never_starts_early() {
        RunResult result = run(
                vm().build(),
                call(0, "search", "a", "a"),
                call(1, "send", "${a}", "s"),
                call(2, "search", "c", "c"),
                assign(3, "final_answer", "${s} ${c}"));

        assertThat(result.finalAnswer().asText()).isEqualTo("sent(s(a)) s(c)");
        assertThat(result.earlyCalls()).isEqualTo(new RunResult.EarlyCalls(0, 0, 0));
        assertThat(invoked).containsExactly("search(a)", "send(s(a))", "search(c)");
    }

    @Test
    void a_call_after_a_committed_side_effect_starts_ahead_of_its_turn() {
        RunResult result = run(
                vm().build(),
                call(0, "send", "x", "s"),
                call(1, "search", "a", "a"),
                call(2, "search", "b", "b"),
                assign(3, "final_answer", "${s} ${a} ${b}"));

        assertThat(result.finalAnswer().asText()).isEqualTo("sent(x) s(a) s(b)");
        assertThat(result.earlyCalls()).as("seq_no 2 while seq_no 1 runs").isEqualTo(new RunResult.EarlyCalls(1, 1, 0));
        assertThat(invoked.get(0)).isEqualTo("send(x)");
    }

    @Test
    void an_assign_failing_ahead_starts_nothing_and_fails_at_its_turn() {
        RunResult result = run(
                vm().runLimits(RunLimits.DEFAULT.withMaxStringLength(10)).build(),
                call(0, "search", "abc", "a"),
                assign(1, "t", "${a}${a}${a}"),
                call(2, "search", "${t}", "c"),
                assign(3, "final_answer", "${c}"));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.earlyCalls().started()).isZero();
        assertThat(invoked).containsExactly("search(abc)");
    }

    @Test
    void an_answer_breaking_the_limits_is_not_forwarded_and_fails_at_its_turn() {
        RunResult result = run(
                vm().runLimits(RunLimits.DEFAULT.withMaxValueSize(20)).build(),
                call(0, "search", "a", "a"),
                call(1, "wordy", "x", "w"),
                call(2, "search", "${w}", "c"),
                assign(3, "final_answer", "${c}"));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.earlyCalls())
                .as("wordy ahead, used; nothing read its answer")
                .isEqualTo(new RunResult.EarlyCalls(1, 1, 0));
        assertThat(invoked).containsExactlyInAnyOrder("search(a)", "wordy(x)");
    }

    @Test
    void a_call_failing_ahead_fails_its_step_at_its_turn_naming_the_cause() {
        RunResult result = run(
                vm().build(),
                call(0, "search", "a", "a"),
                call(1, "broken", "x", "b"),
                call(2, "search", "${b}", "c"),
                assign(3, "final_answer", "${c}"));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().message()).contains("broken on purpose");
        assertThat(result.earlyCalls().started()).isEqualTo(1);
        assertThat(invoked).containsExactlyInAnyOrder("search(a)", "broken(x)");
    }

    @Test
    void a_loop_calls_again_in_each_pass_and_early_answers_never_cross_passes() {
        RunResult result = run(
                vm().build(),
                "{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"i\": 0}}",
                call(1, "search", "p${i}", "a"),
                call(2, "search", "q${i}", "b"),
                assign(3, "i", "${i + 1}"),
                "{\"seq_no\": 4, \"type\": \"jmp\", \"parameters\": {\"condition\": \"${i < 3}\", "
                        + "\"jump_if_true\": 1, \"jump_if_false\": 5}}",
                assign(5, "final_answer", "${a} ${b}"));

        assertThat(result.finalAnswer().asText()).isEqualTo("s(p2) s(q2)");
        assertThat(result.earlyCalls())
                .as("seq_no 2 ahead in each of 3 passes")
                .isEqualTo(new RunResult.EarlyCalls(3, 3, 0));
        assertThat(invoked)
                .containsExactlyInAnyOrder(
                        "search(p0)", "search(q0)", "search(p1)", "search(q1)", "search(p2)", "search(q2)");
    }

    @Test
    void a_call_waiting_for_a_committed_answer_starts_once_that_step_commits() {
        RunResult result = run(
                vm().build(),
                call(0, "search", "a", "a"),
                assign(1, "t", "${a}!"),
                call(2, "search", "${t}", "c"),
                assign(3, "final_answer", "${c}"));

        assertThat(result.finalAnswer().asText()).isEqualTo("s(s(a)!)");
        assertThat(result.earlyCalls())
                .as("seq_no 2 starts while seq_no 1 runs, from seq_no 0's committed answer")
                .isEqualTo(new RunResult.EarlyCalls(1, 1, 0));
    }

    @Test
    void answers_that_come_while_a_call_waits_at_its_turn_start_the_calls_reading_them() {
        java.util.concurrent.CountDownLatch readerCalled = new java.util.concurrent.CountDownLatch(1);
        PlanVm vm = vm().tool(tool("slow", false, q -> {
                    try {
                        return TextNode.valueOf(
                                readerCalled.await(10, java.util.concurrent.TimeUnit.SECONDS) ? "opened" : "timed out");
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return TextNode.valueOf("interrupted");
                    }
                }))
                .tool(tool("reader", false, q -> {
                    readerCalled.countDown();
                    return TextNode.valueOf("r(" + q + ")");
                }))
                .build();

        RunResult result = run(
                vm,
                call(0, "slow", "x", "a"),
                call(1, "search", "b", "b"),
                call(2, "reader", "${b}", "c"),
                assign(3, "final_answer", "${a} ${c}"));

        assertThat(result.finalAnswer().asText())
                .as("seq_no 2 was called while seq_no 0 still waited at its turn")
                .isEqualTo("opened r(s(b))");
        assertThat(result.earlyCalls()).isEqualTo(new RunResult.EarlyCalls(2, 2, 0));
    }

    @Test
    void a_sequential_run_starts_nothing_early() {
        RunResult result = run(
                vm().sequential(true).build(),
                call(0, "search", "a", "a"),
                call(1, "search", "b", "b"),
                assign(2, "final_answer", "${a} ${b}"));

        assertThat(result.finalAnswer().asText()).isEqualTo("s(a) s(b)");
        assertThat(result.earlyCalls()).as("no speculation at all").isNull();
        assertThat(invoked).containsExactly("search(a)", "search(b)");
    }

    /** Set once the {@code hang} tool runs, and once it is interrupted (its call cancelled). */
    private final java.util.concurrent.CountDownLatch hangEntered = new java.util.concurrent.CountDownLatch(1);

    private final java.util.concurrent.CountDownLatch hangCancelled = new java.util.concurrent.CountDownLatch(1);

    /** Read-only tools: {@code hang} waits until its call is cancelled, {@code gate} fails once hang runs. */
    private PlanVmBuilder discarding() {
        return vm().tool(tool("hang", false, q -> {
                    hangEntered.countDown();
                    try {
                        new java.util.concurrent.CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        hangCancelled.countDown();
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf("hung");
                }))
                .tool(tool("gate", false, q -> {
                    await(hangEntered);
                    throw new IllegalStateException("gate closed");
                }));
    }

    private static boolean await(java.util.concurrent.CountDownLatch latch) {
        try {
            return latch.await(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void a_run_that_fails_cancels_the_calls_it_started_early() {
        RunResult result = run(discarding().build(), call(0, "gate", "g", "g"), call(1, "hang", "h", "final_answer"));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().message()).contains("gate closed");
        assertThat(await(hangCancelled)).as("the early call was cancelled").isTrue();
        assertThat(invoked).containsExactlyInAnyOrder("hang(h)", "gate(g)");
    }

    @Test
    void an_early_call_whose_tool_throws_an_error_fails_its_step_at_its_turn_naming_the_error() {
        RunResult result = run(
                vm().tool(tool("erring", false, q -> {
                            throw new AssertionError("erring on purpose");
                        }))
                        .build(),
                call(0, "search", "a", "a"),
                call(1, "erring", "x", "b"),
                assign(2, "final_answer", "${b}"));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.earlyCalls().started()).isEqualTo(1);
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().message()).contains("erring on purpose");
    }

    @Test
    void an_early_call_that_overflows_the_stack_fails_the_run_as_exhausted_and_cancels_the_others() {
        RunResult result = run(
                discarding()
                        .tool(tool("deep", false, q -> {
                            await(hangEntered);
                            throw new StackOverflowError();
                        }))
                        .build(),
                call(0, "search", "a", "a"),
                call(1, "deep", "x", "b"),
                call(2, "hang", "h", "c"),
                assign(3, "final_answer", "${b}"));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().kind()).isEqualTo(dev.planvm.vm.run.FailureKind.LIMIT_REACHED);
        assertThat(result.error().message()).contains("overflowed the stack");
        assertThat(result.variables()).isEmpty();
        assertThat(await(hangCancelled))
                .as("the other early call was cancelled")
                .isTrue();
    }
}
