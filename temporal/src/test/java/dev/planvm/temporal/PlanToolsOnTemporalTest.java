package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.PlanToolSource;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.temporal.contract.WaitingInput;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Plan tools on Temporal: the request carries the plan-tool plans, and each plan-tool call runs as a child
 * workflow ({@code PARENT/SEQ_NO}) of the same type on the same task queue — with the same answer and the same
 * located failures as a local child run, and surviving the loss of the worker that runs it.
 */
class PlanToolsOnTemporalTest {

    private static final Path PLANS = Path.of("..", "plans");
    private static final Map<String, AtomicInteger> invocations = new ConcurrentHashMap<>();
    private static final CountDownLatch hung = new CountDownLatch(1);
    private static final CountDownLatch release = new CountDownLatch(1);
    /** A plan tool that calls {@code step} twice, the second time on the first answer. */
    private static final String TWICE = """
            {"name": "twice", "inputs": {"type": "object", "properties": {"start": {"type": "string"}},
              "required": ["start"]}, "output": {"type": "string"},
             "plan": [
              {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${start}"}, "output_vars": "a"}},
              {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${a}"}, "output_vars": "final_answer"}}]}""";

    private static String queue;
    private static PlanWorkers workers;

    @BeforeAll
    static void startWorkers() {
        queue = TestTemporal.queue("plan-tools");
        workers = workers(queue).start();
    }

    @AfterAll
    static void stopWorkers() {
        release.countDown();
        workers.close();
    }

    @Test
    void the_example_parent_ends_on_temporal_as_locally_with_each_call_a_child_workflow() throws IOException {
        Path parentFile = PLANS.resolve("plan-tools-parent.json");
        PlanVm local = PlanVm.builder()
                .tools(tools())
                .planTools(PLANS.resolve("plan-tools"))
                .build();
        RunResult expected = local.run(local.loader().load(parentFile).planOrThrow(), Map.of());

        String id = "plan-tools-parent-" + queue;
        TemporalPlans plans = TestTemporal.plans(queue);
        plans.start(request("plan-tools-parent.json", Files.readString(parentFile)), id);
        PlanResponse remote = plans.result(id);

        assertThat(expected.status().label()).isEqualTo("succeeded");
        assertThat(remote.status()).isEqualTo("succeeded");
        assertThat(remote.finalAnswer()).isEqualTo(expected.finalAnswer());
        assertThat(remote.steps()).isEqualTo(expected.steps());
        assertThat(Steps.of(remote.trace())).isEqualTo(Steps.of(expected.trace()));
        List<String> children = new ArrayList<>();
        remote.trace()
                .path("calls")
                .forEach(call -> children.add(call.path("child_run_id").asText()));
        assertThat(children).containsExactlyInAnyOrder(id + "/0", id + "/1", id + "/2");
        JsonNode child = plans.show(id + "/1");
        assertThat(child.get("status").asText()).isEqualTo("succeeded");
        assertThat(child.at("/plan/source").asText()).endsWith("headline.json");
        assertThat(child.at("/inputs/audience").asText()).isEqualTo("operators");
        PlanResponse second = plans.result(id + "/1");
        assertThat(second.finalAnswer().asText()).isEqualTo("operators: 2 words on durable runs");
    }

    @Test
    void each_element_of_a_for_each_is_a_child_workflow_of_its_own_and_the_outputs_keep_their_order()
            throws IOException {
        String parent = """
                [{"seq_no": 0, "type": "assign", "parameters": {"topics": ["durable runs", "early starts", "cassettes"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "headline", "for_each": "${topics}",
                   "as": "topic", "tool_params": {"topic": "${topic}", "audience": "reader ${index}"},
                   "output_vars": "headlines"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${join(headlines, ' | ')}"}}]""";
        PlanVm local = PlanVm.builder()
                .tools(tools())
                .planTools(PLANS.resolve("plan-tools"))
                .build();
        RunResult expected = local.run(local.loader().load(parent, "map.json").planOrThrow(), Map.of());

        String id = "plan-tools-map-" + queue;
        TemporalPlans plans = TestTemporal.plans(queue);
        plans.start(request("map.json", parent), id);
        PlanResponse remote = plans.result(id);

        assertThat(remote.status()).isEqualTo("succeeded");
        assertThat(remote.finalAnswer()).isEqualTo(expected.finalAnswer());
        assertThat(remote.finalAnswer().asText())
                .isEqualTo("reader 0: 2 words on durable runs | reader 1: 2 words on early starts"
                        + " | reader 2: 1 words on cassettes");
        List<String> children = new ArrayList<>();
        remote.trace()
                .path("calls")
                .forEach(call -> children.add(call.path("child_run_id").asText()));
        assertThat(children).containsExactlyInAnyOrder(id + "/1", id + "/1.1", id + "/1.2");
    }

    @Test
    void params_that_do_not_fit_the_inputs_fail_the_step_as_locally_and_start_no_child() throws IOException {
        String parent = """
                [{"seq_no": 0, "type": "assign", "parameters": {"topic": 42}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "headline",
                   "tool_params": {"topic": "${topic}"}, "output_vars": ["final_answer"]}}]""";
        PlanVm local = PlanVm.builder()
                .tools(tools())
                .planTools(PLANS.resolve("plan-tools"))
                .build();
        RunResult expected =
                local.run(local.loader().load(parent, "refused.json").planOrThrow(), Map.of());

        String id = "plan-tools-refused-" + queue;
        TemporalPlans plans = TestTemporal.plans(queue);
        plans.start(request("refused.json", parent), id);
        PlanResponse remote = plans.result(id);

        assertThat(expected.status().label()).isEqualTo("failed");
        assertThat(remote.status()).isEqualTo("failed");
        assertThat(remote.error().describe()).isEqualTo(expected.error().describe());
        assertThat(remote.error().describe())
                .startsWith("seq_no 1 (calling): ")
                .contains("params do not fit the schema of tool 'headline'");
        assertThat(remote.trace().path("calls").findValues("child_run_id")).isEmpty();
    }

    @Test
    void a_new_worker_finishes_a_child_workflow_of_a_dead_one_without_repeating_a_committed_call() throws Exception {
        String lossQueue = TestTemporal.queue("plan-tools-loss");
        TemporalPlans plans = TestTemporal.plans(lossQueue);
        PlanWorkers first = workers(lossQueue).start();
        PlanWorkers second = null;
        String chain = """
                {"name": "chain", "inputs": {"type": "object", "properties": {"start": {"type": "string"}},
                  "required": ["start"]},
                 "plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${start}"}, "output_vars": "a"}},
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${a}"}, "output_vars": "b"}},
                  {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${b}"}, "output_vars": "c"}},
                  {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${c}"}, "output_vars": "final_answer"}}]}""";
        String parent = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "chain", "tool_params": {"start": "0"},
                   "output_vars": ["final_answer"]}}]""";
        try {
            String id = plans.start(
                    PlanRequest.builder("parent.json", parent, Map.of())
                            .planTools(List.of(new PlanToolSource("chain.json", chain)), null)
                            .build(),
                    null);
            assertThat(hung.await(60, TimeUnit.SECONDS))
                    .as("the child's third call started")
                    .isTrue();
            assertThat(plans.show(id + "/0").get("steps").findValues("seq_no").stream()
                            .map(JsonNode::asInt)
                            .toList())
                    .containsExactly(0, 1);

            first.kill();
            second = workers(lossQueue).start();
            PlanResponse response = plans.result(id);

            assertThat(response.status()).isEqualTo("succeeded");
            assertThat(response.finalAnswer().asText()).isEqualTo("step(step(step(step(0))))");
            assertThat(invocations.get("0")).as("committed before the loss").hasValue(1);
            assertThat(invocations.get("step(0)"))
                    .as("committed before the loss")
                    .hasValue(1);
            assertThat(invocations.get("step(step(0))"))
                    .as("in flight at the loss: made again")
                    .hasValue(2);
            assertThat(invocations.get("step(step(step(0)))")).hasValue(1);
            assertThat(plans.show(id + "/0").get("steps")).hasSize(4);
        } finally {
            release.countDown();
            if (second != null) {
                second.close();
            }
        }
    }

    @Test
    void a_recording_on_temporal_nests_each_childs_calls_and_replays_locally_and_on_temporal() {
        String parent = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"start": "x"}, "output_vars": ["x"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"start": "y"}, "output_vars": ["y"]}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${x} ${y}"}}]""";
        PlanRequest request = PlanRequest.builder("twice-parent.json", parent, Map.of())
                .planTools(List.of(new PlanToolSource("twice.json", TWICE)), null)
                .build();
        TemporalPlans plans = TestTemporal.plans(queue);

        PlanResponse recorded =
                plans.run(request.toBuilder().mode("record", null, false).build());

        assertThat(recorded.status()).isEqualTo("succeeded");
        assertThat(recorded.finalAnswer().asText()).isEqualTo("step(step(x)) step(step(y))");
        Cassette cassette = Cassette.fromJson(recorded.cassette(), "recorded");
        assertThat(cassette.interactions()).hasSize(2);
        for (var interaction : cassette.interactions()) {
            var call = (Interaction.ToolInteraction) interaction;
            assertThat(call.tool()).isEqualTo("twice");
            assertThat(call.childRun()).isTrue();
            assertThat(call.children()).hasSize(2);
        }
        int made = invocations.get("x").get() + invocations.get("y").get();

        PlanVm local = PlanVm.builder()
                .tools(tools())
                .planTool(PlanVm.builder()
                        .build()
                        .loader()
                        .load(TWICE, "twice.json")
                        .planOrThrow())
                .build();
        RunResult replayedLocally = local.run(
                local.loader().load(parent, "twice-parent.json").planOrThrow(),
                Map.of(),
                RunMode.replay(cassette, false));
        PlanResponse replayed = plans.run(
                request.toBuilder().mode("replay", cassette.toJson(), false).build());

        assertThat(replayedLocally.finalAnswer()).isEqualTo(recorded.finalAnswer());
        assertThat(replayed.status()).isEqualTo("succeeded");
        assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());
        assertThat(invocations.get("x").get() + invocations.get("y").get())
                .as("a replay calls no tool")
                .isEqualTo(made);

        PlanResponse dry =
                plans.run(request.toBuilder().mode("dry-run", null, false).build());
        RunResult dryLocally = local.run(
                local.loader().load(parent, "twice-parent.json").planOrThrow(), Map.of(), RunMode.dryRun(false));
        assertThat(dry.status()).isEqualTo("succeeded");
        assertThat(dry.finalAnswer()).isEqualTo(dryLocally.finalAnswer());
    }

    @Test
    void two_children_making_the_same_call_each_replay_their_own_recorded_answers_as_locally() throws IOException {
        String parent = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"start": "s"}, "output_vars": ["x"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"start": "s"}, "output_vars": ["y"]}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${x} ${y}"}}]""";
        // the same call twice, its child runs recorded with different answers (a tool that is not deterministic)
        Cassette cassette = Cassette.fromJson(new ObjectMapper().readTree("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "twice", "params": {"start": "s"}, "output": "A2", "child_run": true,
                   "child_interactions": [
                     {"type": "tool", "tool": "step", "params": {"n": "s"}, "output": "A1"},
                     {"type": "tool", "tool": "step", "params": {"n": "A1"}, "output": "A2"}]},
                  {"type": "tool", "tool": "twice", "params": {"start": "s"}, "output": "B2", "child_run": true,
                   "child_interactions": [
                     {"type": "tool", "tool": "step", "params": {"n": "s"}, "output": "B1"},
                     {"type": "tool", "tool": "step", "params": {"n": "B1"}, "output": "B2"}]}]}"""), "by hand");
        // one call at a time: two calls with the same params take the recordings in the order they start
        PlanVm local = PlanVm.builder()
                .tools(tools())
                .sequential(true)
                .planTool(PlanVm.builder()
                        .build()
                        .loader()
                        .load(TWICE, "twice.json")
                        .planOrThrow())
                .build();
        RunResult replayedLocally = local.run(
                local.loader().load(parent, "same-call.json").planOrThrow(), Map.of(), RunMode.replay(cassette, false));
        PlanResponse replayed = TestTemporal.plans(queue)
                .run(PlanRequest.builder("same-call.json", parent, Map.of())
                        .settings(RunSettings.builder().concurrency(true, 1).build())
                        .planTools(List.of(new PlanToolSource("twice.json", TWICE)), null)
                        .mode("replay", cassette.toJson(), false)
                        .build());

        assertThat(replayedLocally.finalAnswer().asText()).isEqualTo("A2 B2");
        assertThat(replayed.status()).as(String.valueOf(replayed.error())).isEqualTo("succeeded");
        assertThat(replayed.finalAnswer().asText())
                .as("each child workflow replays the interactions recorded under its own call")
                .isEqualTo("A2 B2");
    }

    @Test
    @Timeout(120)
    void a_human_input_in_a_child_workflow_is_answered_there_and_the_parent_goes_on() throws Exception {
        String ask = """
                {"name": "ask", "inputs": {"type": "object", "properties": {"question": {"type": "string"}}},
                 "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input",
                   "tool_params": {"prompt": "${question}", "choices": ["yes", "no"]}, "output_vars": "final_answer"}}]}""";
        String parent = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "ask", "tool_params": {"question": "Ship it?"},
                   "output_vars": ["go"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "answer: ${go}"}}]""";
        TemporalPlans plans = TestTemporal.plans(queue);
        String id = "plan-tools-ask-" + queue;
        plans.start(
                PlanRequest.builder("ask-parent.json", parent, Map.of())
                        .planTools(List.of(new PlanToolSource("ask.json", ask)), null)
                        .build(),
                id);
        String child = id + "/0";
        List<WaitingInput> waiting = List.of();
        while (waiting.isEmpty()) {
            try {
                waiting = plans.waitingInputs(child);
            } catch (TemporalException notYet) {
                // the child workflow has not started yet
            }
            Thread.sleep(20);
        }
        assertThat(waiting)
                .singleElement()
                .satisfies(input ->
                        assertThat(input.params().path("prompt").asText()).isEqualTo("Ship it?"));
        assertThat(plans.waitingInputs(id))
                .as("the parent waits for its child, not for a person")
                .isEmpty();

        assertThat(plans.answer(child, 0, TextNode.valueOf("yes"))).isZero();
        PlanResponse response = plans.result(id);
        assertThat(response.status()).isEqualTo("succeeded");
        assertThat(response.finalAnswer().asText()).isEqualTo("answer: yes");
    }

    @Test
    void plan_tools_deeper_than_the_requests_max_plan_depth_refuse_the_run_as_locally() {
        String outer = """
                {"name": "outer", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "inner",
                  "tool_params": {}, "output_vars": "final_answer"}}]}""";
        String inner = """
                {"name": "inner", "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "deep"}}]}""";
        String parent = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "outer", "tool_params": {},
                   "output_vars": ["final_answer"]}}]""";
        List<PlanToolSource> tools =
                List.of(new PlanToolSource("outer.json", outer), new PlanToolSource("inner.json", inner));
        TemporalPlans plans = TestTemporal.plans(queue);

        PlanResponse refused = plans.run(PlanRequest.builder("deep.json", parent, Map.of())
                .planTools(tools, 0)
                .build());
        PlanResponse allowed = plans.run(PlanRequest.builder("deep.json", parent, Map.of())
                .planTools(tools, 1)
                .build());

        assertThat(refused.status()).isEqualTo("rejected");
        assertThat(refused.problems())
                .containsExactly("seq_no 0 at /0/parameters: plan tool 'outer' cannot be used: it calls plan tools 1"
                        + " deep (outer → inner); the limit is 0 (--max-plan-depth)");
        assertThat(allowed.status()).isEqualTo("succeeded");
        assertThat(allowed.finalAnswer().asText()).isEqualTo("deep");
    }

    private static PlanRequest request(String source, String plan) throws IOException {
        return PlanRequest.builder(source, plan, Map.of())
                .planTools(exampleTools(), null)
                .build();
    }

    /** The example plan tools, as the submitting side sends them. */
    private static List<PlanToolSource> exampleTools() throws IOException {
        List<PlanToolSource> tools = new ArrayList<>();
        try (Stream<Path> files = Files.list(PLANS.resolve("plan-tools"))) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                tools.add(new PlanToolSource(file.toString(), Files.readString(file)));
            }
        }
        return tools;
    }

    /** {@code step} wraps its {@code n}; its first call with {@code n = step(step(0))} never answers. */
    private static List<Tool> tools() {
        return List.of(Tool.of("step", "wraps n", (params, context) -> {
            String n = params.get("n").asText();
            int call = invocations.computeIfAbsent(n, s -> new AtomicInteger()).incrementAndGet();
            if (n.equals("step(step(0))") && call == 1) {
                hung.countDown();
                awaitIgnoringInterrupts(); // the process is gone: nothing it does reaches the server
            }
            return TextNode.valueOf("step(" + n + ")");
        }));
    }

    private static PlanWorkers workers(String taskQueue) {
        return PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(taskQueue)
                .tools(tools())
                .heartbeatTimeout(Duration.ofSeconds(3))
                .stickyQueueTimeout(Duration.ZERO)
                .build();
    }

    private static void awaitIgnoringInterrupts() {
        while (true) {
            try {
                release.await();
                return;
            } catch (InterruptedException ignored) {
                // a dead process does not stop early
            }
        }
    }
}
