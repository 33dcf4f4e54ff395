package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.vm.EarlyStarts.EarlyCall;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Which calls of a plan still arriving start early ({@link EarlyStarts}, over the VM's streamed
 * starts): where the straight-line start of the plan ends, what a value failing ahead does to the
 * calls reading it, and the in-flight cap.
 */
class StreamedStartsTest {

    private final AtomicInteger searches = new AtomicInteger();
    private final CountDownLatch gate = new CountDownLatch(1);

    /** A read-only tool answering {@code name(q)}. */
    private Tool search() {
        return tool("search", params -> {
            searches.incrementAndGet();
            return TextNode.valueOf("search(" + params.path("q").asText() + ")");
        });
    }

    /** A read-only tool that answers only once {@link #gate} opens. */
    private Tool gated() {
        return tool("gated", params -> {
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return TextNode.valueOf("gated(" + params.path("q").asText() + ")");
        });
    }

    /** A read-only tool answering 40 characters, whatever it is asked. */
    private static Tool wordy() {
        return tool("wordy", params -> TextNode.valueOf("w".repeat(40)));
    }

    /** A read-only tool that always fails. */
    private static Tool broken() {
        return tool("broken", params -> {
            throw new IllegalStateException("broken on purpose");
        });
    }

    private static Tool tool(String name, java.util.function.Function<JsonNode, JsonNode> answer) {
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean hasSideEffects() {
                return false;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                return answer.apply(params);
            }
        };
    }

    private static final Map<String, JsonNode> INPUTS = Map.of("subject", TextNode.valueOf("TiDB"));

    private static String call(int seqNo, String tool, String q, String out) {
        return "{\"seq_no\": " + seqNo + ", \"type\": \"calling\", \"parameters\": {\"tool_name\": \"" + tool
                + "\", \"tool_params\": {\"q\": \"" + q + "\"}, \"output_vars\": \"" + out + "\"}}";
    }

    private static List<Integer> seqNos(EarlyStarts early) {
        return early.calls().stream().map(EarlyCall::seqNo).toList();
    }

    /** Waits (at most 10 s) until the calls started so far satisfy {@code done}. */
    private static void await(EarlyStarts early, Predicate<List<EarlyCall>> done) throws InterruptedException {
        for (int i = 0; i < 2_000 && !done.test(early.calls()); i++) {
            Thread.sleep(5);
        }
    }

    private static boolean allAnswered(List<EarlyCall> calls) {
        return calls.stream().allMatch(c -> c.answeredNanos() != 0);
    }

    @Test
    void a_jmp_ends_the_start_of_the_plan_and_no_call_after_it_starts_early() throws Exception {
        PlanVm vm = PlanVm.builder().tool(search()).build();
        Plan plan = vm.loader()
                .load(
                        "[" + call(0, "search", "${subject}", "a")
                                + ",{\"seq_no\": 1, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 2}},"
                                + call(2, "search", "later", "b")
                                + ",{\"seq_no\": 3, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${a} ${b}\"}}]",
                        "p.json")
                .planOrThrow();
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(INPUTS);

        plan.instructions().forEach(early::arrived);
        await(early, StreamedStartsTest::allAnswered);
        early.finish();

        assertThat(seqNos(early)).containsExactly(0);
        RunResult result =
                vm.run(RunRequest.builder(plan).inputs(INPUTS).session(session).build());
        assertThat(result.finalAnswer().asText()).isEqualTo("search(TiDB) search(later)");
        assertThat(session.earlyAnswersUsed()).isEqualTo(1);
        assertThat(searches.get())
                .as("seq_no 0 once, early; seq_no 2 at its turn")
                .isEqualTo(2);
    }

    @Test
    void an_instruction_arriving_again_or_out_of_order_ends_the_start_of_the_plan() throws Exception {
        PlanVm vm = PlanVm.builder().tool(search()).build();
        Plan plan = vm.loader()
                .load("[" + call(0, "search", "a", "a") + "," + call(1, "search", "b", "b") + "]", "p.json")
                .planOrThrow();
        EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);

        early.arrived(plan.instructions().get(0));
        early.arrived(plan.instructions().get(0));
        early.arrived(plan.instructions().get(1));

        assertThat(seqNos(early))
                .as("seq_no 0 came twice: nothing after it is straight-line")
                .containsExactly(0);
        early.discard();
    }

    @Test
    void a_reasoning_step_writes_nothing_and_a_call_after_it_starts_with_what_came_before() throws Exception {
        PlanVm vm = PlanVm.builder().tool(search()).build();
        Plan plan = vm.loader()
                .load(
                        "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"topic\": \"${subject} plans\"}},"
                                + "{\"seq_no\": 1, \"type\": \"reasoning\", \"parameters\": {\"chain_of_thoughts\": \"look\"}},"
                                + call(2, "search", "${topic}", "a")
                                + ",{\"seq_no\": 3, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${a}\"}}]",
                        "p.json")
                .planOrThrow();
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(INPUTS);

        plan.instructions().forEach(early::arrived);
        await(early, calls -> !calls.isEmpty() && allAnswered(calls));
        early.finish();

        assertThat(seqNos(early)).containsExactly(2);
        RunResult result =
                vm.run(RunRequest.builder(plan).inputs(INPUTS).session(session).build());
        assertThat(result.finalAnswer().asText()).isEqualTo("search(TiDB plans)");
        assertThat(session.earlyAnswersUsed()).isEqualTo(1);
        assertThat(searches.get()).isEqualTo(1);
    }

    @Test
    void an_assign_that_breaks_the_limits_ahead_keeps_the_calls_reading_it_for_their_turn() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(search())
                .runLimits(RunLimits.DEFAULT.withMaxStringLength(10))
                .build();
        Plan plan = vm.loader()
                .load(
                        "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"x\": \"${subject}${subject}${subject}\"}},"
                                + call(1, "search", "${x}", "a") + "," + call(2, "search", "${subject}", "b") + "]",
                        "p.json")
                .planOrThrow();
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(INPUTS);

        plan.instructions().forEach(early::arrived);
        await(early, calls -> !calls.isEmpty() && allAnswered(calls));
        early.finish();

        assertThat(seqNos(early)).as("only the call not reading x").containsExactly(2);
        RunResult result =
                vm.run(RunRequest.builder(plan).inputs(INPUTS).session(session).build());
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).as("the assign fails at its turn").isEqualTo(0);
        assertThat(searches.get()).isEqualTo(1);
    }

    @Test
    void a_call_whose_answer_breaks_the_limits_is_not_forwarded_to_the_calls_reading_it() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(search())
                .tool(wordy())
                .runLimits(RunLimits.DEFAULT.withMaxValueSize(20))
                .build();
        Plan plan = vm.loader()
                .load("[" + call(0, "wordy", "x", "a") + "," + call(1, "search", "${a}", "b") + "]", "p.json")
                .planOrThrow();
        EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);

        early.arrived(plan.instructions().get(0));
        await(early, StreamedStartsTest::allAnswered);
        early.arrived(plan.instructions().get(1));
        early.finish();

        assertThat(seqNos(early)).containsExactly(0);
        assertThat(early.calls().get(0).failed()).as("the call itself answered").isFalse();
        assertThat(searches.get()).isZero();
    }

    @Test
    void a_call_failing_ahead_is_not_forwarded_to_the_calls_reading_it() throws Exception {
        PlanVm vm = PlanVm.builder().tool(search()).tool(broken()).build();
        Plan plan = vm.loader()
                .load(
                        "[" + call(0, "broken", "x", "a") + "," + call(1, "search", "${a}", "b") + ","
                                + call(2, "search", "free", "c") + "]",
                        "p.json")
                .planOrThrow();
        EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);

        early.arrived(plan.instructions().get(0));
        await(early, StreamedStartsTest::allAnswered);
        early.arrived(plan.instructions().get(1));
        early.arrived(plan.instructions().get(2));
        await(early, calls -> calls.size() == 2 && allAnswered(calls));
        early.finish();

        assertThat(seqNos(early)).containsExactly(0, 2);
        assertThat(early.calls().get(0).failed()).isTrue();
        assertThat(early.calls().get(1).failed()).isFalse();
    }

    @Test
    void the_in_flight_cap_holds_a_call_until_one_running_answers() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(search())
                .tool(gated())
                .maxInFlightPerRun(1)
                .build();
        Plan plan = vm.loader()
                .load("[" + call(0, "gated", "x", "a") + "," + call(1, "search", "y", "b") + "]", "p.json")
                .planOrThrow();
        EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);

        plan.instructions().forEach(early::arrived);
        assertThat(seqNos(early)).as("one call in flight at most").containsExactly(0);
        assertThat(early.calls().get(0).answeredNanos()).isZero();

        gate.countDown();
        await(early, calls -> calls.size() == 2 && allAnswered(calls));
        early.finish();

        assertThat(seqNos(early)).as("seq_no 1 started when seq_no 0 answered").containsExactly(0, 1);
        assertThat(early.calls().get(1).startedNanos())
                .isGreaterThanOrEqualTo(early.calls().get(0).answeredNanos());
    }

    @Test
    void discarding_cancels_a_call_still_running() throws Exception {
        PlanVm vm = PlanVm.builder().tool(search()).tool(gated()).build();
        Plan plan = vm.loader()
                .load("[" + call(0, "gated", "x", "a") + "," + call(1, "search", "${a}", "b") + "]", "p.json")
                .planOrThrow();
        EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);
        plan.instructions().forEach(early::arrived);

        early.discard();
        gate.countDown();
        await(early, calls -> calls.stream().allMatch(c -> c.failed() || c.answeredNanos() != 0));

        assertThat(early.calls()).singleElement().satisfies(c -> {
            assertThat(c.seqNo()).isZero();
            assertThat(c.failed()).as("cancelled").isTrue();
        });
        assertThat(searches.get()).isZero();
    }

    @Test
    void nothing_arriving_after_finish_starts() {
        PlanVm vm = PlanVm.builder().tool(search()).build();
        Plan plan = vm.loader()
                .load("[" + call(0, "search", "a", "a") + "," + call(1, "search", "b", "b") + "]", "p.json")
                .planOrThrow();
        EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);

        early.arrived(plan.instructions().get(0));
        early.finish();
        early.arrived(plan.instructions().get(1));

        assertThat(seqNos(early)).containsExactly(0);
    }

    @Test
    void a_denied_tool_a_tool_to_approve_and_a_missing_tool_end_the_start_of_the_plan() {
        String json = "[" + call(0, "%s", "a", "a") + "," + call(1, "search", "b", "b") + "]";
        PlanVm denying = PlanVm.builder()
                .tool(search())
                .tool(wordy())
                .toolPolicy(ToolPolicy.of(List.of(), List.of("wordy")))
                .build();
        PlanVm approving = PlanVm.builder()
                .tool(search())
                .tool(wordy())
                .approveTools(List.of("wordy"))
                .build();
        PlanVm missing = PlanVm.builder().tool(search()).build();
        for (PlanVm vm : List.of(denying, approving, missing)) {
            Plan plan = vm.loader().load(json.formatted("wordy"), "p.json").planOrThrow();
            EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);
            plan.instructions().forEach(early::arrived);
            early.finish();
            assertThat(early.calls()).isEmpty();
        }
    }

    @Test
    void the_start_of_the_plan_is_its_first_thousand_instructions() throws Exception {
        PlanVm vm = PlanVm.builder().tool(search()).build();
        for (int assigns : new int[] {999, 1_000}) {
            StringBuilder json = new StringBuilder("[");
            for (int i = 0; i < assigns; i++) {
                json.append("{\"seq_no\": ")
                        .append(i)
                        .append(", \"type\": \"assign\", \"parameters\": {\"v")
                        .append(i)
                        .append("\": \"x\"}},");
            }
            json.append(call(assigns, "search", "q", "a")).append("]");
            Plan plan = vm.loader().load(json.toString(), "long.json").planOrThrow();
            EarlyStarts early = vm.session(RunMode.live()).startEarly(INPUTS);

            plan.instructions().forEach(early::arrived);
            await(early, StreamedStartsTest::allAnswered);
            early.discard();

            assertThat(seqNos(early))
                    .as("a call at position %d", assigns)
                    .isEqualTo(assigns < 1_000 ? List.of(assigns) : List.of());
        }
    }

    /** Starts every instruction of {@code plan} early, waits until each call answered, then runs the plan. */
    private static RunResult startedEarlyThenRun(PlanVm vm, Plan plan) throws InterruptedException {
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(INPUTS);
        plan.instructions().forEach(early::arrived);
        await(early, calls -> !calls.isEmpty() && allAnswered(calls));
        early.finish();
        assertThat(seqNos(early)).as("started early").containsExactly(0);
        RunResult result =
                vm.run(RunRequest.builder(plan).inputs(INPUTS).session(session).build());
        assertThat(session.earlyAnswersUsed())
                .as("the early answer was used at its turn")
                .isEqualTo(1);
        return result;
    }

    @Test
    void a_call_that_failed_early_fails_its_step_at_its_turn_without_being_made_again() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        PlanVm vm = PlanVm.builder()
                .tool(tool("broken", params -> {
                    calls.incrementAndGet();
                    throw new IllegalStateException("broken on purpose");
                }))
                .retryPolicy(dev.planvm.tools.call.RetryPolicy.NONE)
                .build();
        Plan plan = vm.loader()
                .load("[" + call(0, "broken", "x", "final_answer") + "]", "p.json")
                .planOrThrow();

        RunResult result = startedEarlyThenRun(vm, plan);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isZero();
        assertThat(result.error().message()).contains("broken on purpose");
        assertThat(calls).hasValue(1);
    }

    @Test
    void the_retries_of_a_call_that_failed_early_are_recorded_by_its_step_at_its_turn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        PlanVm vm = PlanVm.builder()
                .tool(tool("flaky", params -> {
                    calls.incrementAndGet();
                    throw dev.planvm.tools.ToolException.transientFailure("503", null);
                }))
                .retryPolicy(new dev.planvm.tools.call.RetryPolicy(2, java.time.Duration.ZERO, java.time.Duration.ZERO))
                .build();
        Plan plan = vm.loader()
                .load("[" + call(0, "flaky", "x", "final_answer") + "]", "p.json")
                .planOrThrow();

        RunResult result = startedEarlyThenRun(vm, plan);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().message()).contains("503");
        assertThat(calls).as("two attempts, both early").hasValue(2);
        assertThat(result.trace().at("/steps/0/inputs/attempts")).hasSize(2);
    }
}
