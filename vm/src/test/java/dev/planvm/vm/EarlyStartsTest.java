package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.RunResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EarlyStartsTest {

    private final Map<String, AtomicInteger> invoked = new ConcurrentHashMap<>();
    private final CountDownLatch searched = new CountDownLatch(2);

    private Tool tool(String name, boolean sideEffects, long millis) {
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
                invoked.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                context.events().tokens(new TokenCount(10, 1));
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (name.equals("search")) {
                    searched.countDown();
                }
                return TextNode.valueOf(name + "(" + params.path("q").asText() + ")");
            }
        };
    }

    private final PlanVm vm = PlanVm.builder()
            .tool(tool("search", false, 50))
            .tool(tool("send", true, 0))
            .build();

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"topic": "${subject} indexes"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "${topic}"}, "output_vars": "a"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "more ${a}"}, "output_vars": "b"}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "send", "tool_params": {"q": "${b}"}, "output_vars": "sent"}},
             {"seq_no": 4, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "after"}, "output_vars": "c"}},
             {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${b} ${sent} ${c}"}}]""";

    private final Map<String, JsonNode> inputs = Map.of("subject", TextNode.valueOf("TiDB"));

    @Test
    void calls_start_as_their_instructions_arrive_and_their_run_uses_the_answers() throws Exception {
        Plan plan = vm.loader().load(PLAN, "p.json").planOrThrow();
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(inputs);

        List<Instruction> instructions = plan.instructions();
        early.arrived(instructions.get(0));
        early.arrived(instructions.get(1));
        early.arrived(instructions.get(2));
        assertThat(searched.await(60, TimeUnit.SECONDS))
                .as("both searches ran before the plan was complete")
                .isTrue();
        early.arrived(instructions.get(3));
        early.arrived(instructions.get(4));
        early.finish();
        assertThat(early.calls()).extracting(EarlyStarts.EarlyCall::seqNo).containsExactly(1, 2);
        assertThat(invoked).doesNotContainKey("send");

        RunResult result =
                vm.run(RunRequest.builder(plan).inputs(inputs).session(session).build());

        assertThat(result.finalAnswer().asText())
                .isEqualTo("search(more search(TiDB indexes)) send(search(more search(TiDB indexes))) search(after)");
        assertThat(invoked.get("search").get())
                .as("seq_no 1 and 2 early, 4 after the side effect")
                .isEqualTo(3);
        assertThat(session.earlyAnswersUsed()).isEqualTo(2);
        assertThat(result.trace().at("/steps/1/inputs/tokens")).isEqualTo(new TokenCount(10, 1).toJson());
        assertThat(session.tokensSpent()).isEqualTo(new TokenCount(40, 4));
    }

    @Test
    void calls_started_while_a_plan_arrives_go_through_the_vms_call_scheduler() throws Exception {
        List<Integer> tags = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            PlanVm scheduled = PlanVm.builder()
                    .tool(tool("search", false, 0))
                    .tool(tool("send", true, 0))
                    .callScheduler(() -> new RecordingScheduler(tags, threads))
                    .build();
            Plan plan = scheduled.loader().load(PLAN, "p.json").planOrThrow();
            RunSession session = scheduled.session(RunMode.live());
            EarlyStarts early = session.startEarly(inputs);
            plan.instructions().forEach(early::arrived);
            assertThat(searched.await(60, TimeUnit.SECONDS)).isTrue();
            early.finish();

            assertThat(tags).as("tags of the calls the scheduler started").containsExactly(1, 2);
            RunResult result = scheduled.run(
                    RunRequest.builder(plan).inputs(inputs).session(session).build());
            assertThat(result.succeeded()).isTrue();
            assertThat(session.earlyAnswersUsed()).isEqualTo(2);
        } finally {
            threads.shutdownNow();
        }
    }

    /** The default scheduler, recording the tag of every call it starts. */
    private static final class RecordingScheduler implements dev.planvm.vm.run.CallScheduler {
        private final List<Integer> tags;
        private final dev.planvm.vm.run.CallScheduler threads;

        RecordingScheduler(List<Integer> tags, java.util.concurrent.ExecutorService executor) {
            this.tags = tags;
            this.threads = new dev.planvm.vm.internal.ThreadScheduler(() -> executor);
        }

        @Override
        public Pending start(int tag, java.util.function.Supplier<JsonNode> work) {
            tags.add(tag);
            return threads.start(tag, work);
        }

        @Override
        public int awaitDone() throws InterruptedException {
            return threads.awaitDone();
        }

        @Override
        public int pollDone() {
            return threads.pollDone();
        }

        @Override
        public void forgetDone() {
            threads.forgetDone();
        }
    }

    @Test
    void a_long_hostile_start_of_a_plan_is_evaluated_once_per_instruction_and_bounded() {
        StringBuilder json =
                new StringBuilder("[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"v0\": \"ab\"}}");
        for (int i = 1; i < 5_000; i++) {
            json.append(",{\"seq_no\": ")
                    .append(i)
                    .append(", \"type\": \"assign\", \"parameters\": {\"v")
                    .append(i)
                    .append("\": \"${v")
                    .append(i - 1)
                    .append("}${v")
                    .append(i - 1)
                    .append("}\"}}");
        }
        json.append(",{\"seq_no\": 5000, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"search\", "
                + "\"tool_params\": {\"q\": \"x\"}, \"output_vars\": \"a\"}}]");
        Plan plan = vm.loader().load(json.toString(), "hostile.json").planOrThrow();
        EarlyStarts early = vm.session(RunMode.live()).startEarly(Map.of());

        // not hung (rendering the doubling texts would never end): a deadline, no timing target
        assertTimeoutPreemptively(
                Duration.ofSeconds(60), () -> plan.instructions().forEach(early::arrived));

        assertThat(early.calls())
                .as("only the first 1,000 instructions are considered")
                .isEmpty();
        early.discard();
    }

    @Test
    void discarded_calls_are_never_used_and_a_different_call_is_made_at_its_turn() throws Exception {
        Plan plan = vm.loader().load(PLAN, "p.json").planOrThrow();
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(Map.of("subject", TextNode.valueOf("MySQL")));
        early.arrived(plan.instructions().get(0));
        early.arrived(plan.instructions().get(1));
        early.discard();
        session.discardEarly();

        RunResult result =
                vm.run(RunRequest.builder(plan).inputs(inputs).session(session).build());

        assertThat(result.succeeded()).isTrue();
        assertThat(session.earlyAnswersUsed()).isZero();
        assertThat(result.trace().at("/steps/1/inputs/output").asText()).isEqualTo("search(TiDB indexes)");
    }

    @Test
    void an_answer_started_for_other_inputs_is_not_used() throws Exception {
        Plan plan = vm.loader().load(PLAN, "p.json").planOrThrow();
        RunSession session = vm.session(RunMode.live());
        EarlyStarts early = session.startEarly(Map.of("subject", TextNode.valueOf("MySQL")));
        plan.instructions().forEach(early::arrived);
        assertThat(searched.await(60, TimeUnit.SECONDS))
                .as("seq_no 2 started once seq_no 1 answered")
                .isTrue();
        early.finish();

        RunResult result =
                vm.run(RunRequest.builder(plan).inputs(inputs).session(session).build());

        assertThat(result.trace().at("/steps/1/inputs/output").asText()).isEqualTo("search(TiDB indexes)");
        assertThat(session.earlyAnswersUsed()).isZero();
        assertThat(session.discardEarly()).isEqualTo(2);
    }
}
