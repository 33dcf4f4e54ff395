package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.instructions.ForEach;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@code for_each} on {@code calling}: one call per element, concurrently, outputs in the list's order. */
class ForEachTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestTools tools = new TestTools();

    private PlanVm vm(boolean sequential) {
        return PlanVm.builder().tools(tools.tools()).sequential(sequential).build();
    }

    private static Plan load(PlanVm vm, String json) {
        return vm.loader().load(json, "for-each.json").planOrThrow();
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String MAP_OBJECTS = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "object", "for_each": "${people}",
               "as": "person", "tool_params": {"at": "${index}", "hello": "hi ${person.name}"}, "output_vars": "greetings"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${greetings}"}}]""";

    @Test
    void the_outputs_come_in_the_order_of_the_list_with_the_element_and_index_bound_in_the_params() {
        for (boolean sequential : List.of(true, false)) {
            PlanVm vm = vm(sequential);
            RunResult result = vm.run(
                    load(vm, MAP_OBJECTS),
                    Map.of("people", json("[{\"name\": \"Ada\"}, {\"name\": \"Bo\"}, {\"name\": \"Cy\"}]")));
            assertThat(result.succeeded()).as("sequential " + sequential).isTrue();
            assertThat(result.finalAnswer()).isEqualTo(json("""
                    [{"at": 0, "hello": "hi Ada"}, {"at": 1, "hello": "hi Bo"}, {"at": 2, "hello": "hi Cy"}]"""));
        }
        assertThat(tools.calls.get("object").get()).isEqualTo(6);
    }

    @Test
    void the_element_and_index_are_not_written_to_the_variable_store() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "text", "for_each": [1, 2],
                   "tool_params": {"text": "${item}@${index}"}, "output_vars": "final_answer"}}]"""), Map.of());
        assertThat(result.finalAnswer()).isEqualTo(json("[\"1@0\", \"2@1\"]"));
        assertThat(result.variables()).doesNotContainKeys("item", "index");
    }

    @Test
    void elements_are_called_concurrently_up_to_the_in_flight_cap() throws Exception {
        CountDownLatch bothIn = new CountDownLatch(2);
        AtomicInteger metTheOther = new AtomicInteger();
        Tool rendezvous = Tool.of("rendezvous", "Waits until another call is in flight too.", (p, c) -> {
            bothIn.countDown();
            try {
                if (bothIn.await(30, TimeUnit.SECONDS)) {
                    metTheOther.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return p;
        });
        PlanVm vm = PlanVm.builder().tools(List.of(rendezvous)).build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "rendezvous", "for_each": ["a", "b"],
                   "tool_params": {"x": "${item}"}, "output_vars": "final_answer"}}]"""), Map.of());
        assertThat(result.succeeded()).isTrue();
        // each element met the other one while both were in flight: two calls ran at once
        assertThat(metTheOther.get()).isEqualTo(2);
        assertThat(result.finalAnswer()).isEqualTo(json("[{\"x\": \"a\"}, {\"x\": \"b\"}]"));
        // each element is a call of its own in the trace
        assertThat(result.trace().path("calls")).hasSize(2);
        result.trace()
                .path("calls")
                .forEach(call -> assertThat(call.path("seq_no").asInt()).isZero());
    }

    /** A tool without side effects (so a call of it may start ahead of its turn). */
    private static Tool readOnly(String name, java.util.function.UnaryOperator<JsonNode> answer) {
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
            public JsonNode invoke(JsonNode params, dev.planvm.tools.CallContext context) {
                return answer.apply(params);
            }
        };
    }

    @Test
    void a_maps_elements_share_the_in_flight_cap_with_a_call_started_ahead_of_its_turn() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch twoElementsIn = new CountDownLatch(2);
        AtomicInteger overlapped = new AtomicInteger();
        Tool element = readOnly("element", p -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            twoElementsIn.countDown();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return p;
        });
        Tool independent = readOnly("independent", p -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                if (twoElementsIn.await(30, TimeUnit.SECONDS)) {
                    overlapped.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return p;
        });
        PlanVm vm = PlanVm.builder()
                .tools(List.of(element, independent))
                .maxInFlightPerRun(3)
                .build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "element", "for_each": [1, 2, 3, 4, 5, 6],
                   "tool_params": {"x": "${item}"}, "output_vars": "mapped"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "independent", "tool_params": {"y": 7},
                   "output_vars": "other"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": {"mapped": "${mapped}", "other": "${other}"}}}]"""), Map.of());
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(overlapped.get())
                .as("the independent call ran while elements of the map ran")
                .isEqualTo(1);
        assertThat(result.earlyCalls().started())
                .as("the independent call started ahead of its turn")
                .isEqualTo(1);
        assertThat(most.get())
                .as("calls in flight at once, the map's and the early one together")
                .isEqualTo(3);
        assertThat(result.finalAnswer()).isEqualTo(json("""
                {"mapped": [{"x": 1}, {"x": 2}, {"x": 3}, {"x": 4}, {"x": 5}, {"x": 6}], "other": {"y": 7}}"""));
    }

    @Test
    void an_empty_list_makes_no_call_and_binds_an_empty_array() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, MAP_OBJECTS), Map.of("people", json("[]")));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.finalAnswer()).isEqualTo(json("[]"));
        assertThat(tools.calls).doesNotContainKey("object");
    }

    @Test
    void a_list_that_is_not_an_array_fails_the_step_naming_its_seq_no() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, MAP_OBJECTS), Map.of("people", json("{\"name\": \"Ada\"}")));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().describe())
                .startsWith("seq_no 0 (calling): for_each must resolve to a JSON array, but ${people} is an object");
        assertThat(tools.calls).doesNotContainKey("object");
    }

    @Test
    void a_list_longer_than_the_limit_fails_before_any_call() {
        ArrayNode long_ = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i <= ForEach.MAX_ELEMENTS; i++) {
            long_.add(JsonNodeFactory.instance.objectNode().put("name", "n" + i));
        }
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, MAP_OBJECTS), Map.of("people", long_));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().describe())
                .contains("seq_no 0")
                .contains("for_each has 1001 elements; one for_each maps at most 1000");
        assertThat(tools.calls).doesNotContainKey("object");
    }

    private static final String SOME_FAIL = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "flaky", "for_each": "${xs}",
               "tool_params": {"x": "${item}"}, "output_vars": "out"%s}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${out}"}},
             {"seq_no": 2, "type": "jmp", "parameters": {"target_seq": 4}},
             {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "jumped: ${last_error.message}"}},
             {"seq_no": 4, "type": "reasoning", "parameters": {}}]""";

    private final AtomicInteger flakyCalls = new AtomicInteger();

    private PlanVm flakyVm() {
        List<Tool> all = new ArrayList<>(tools.tools());
        all.add(Tool.of("flaky", "Fails on a negative x.", (p, c) -> {
            flakyCalls.incrementAndGet();
            if (p.path("x").asInt() < 0) {
                throw ToolException.permanent("negative " + p.path("x").asInt());
            }
            return p.path("x");
        }));
        return PlanVm.builder().tools(all).build();
    }

    @Test
    void on_error_value_stands_for_each_failed_element_and_last_error_names_its_index() {
        PlanVm vm = flakyVm();
        RunResult result = vm.run(
                load(vm, SOME_FAIL.formatted(", \"on_error\": {\"value\": 0}")), Map.of("xs", json("[1, -2, 3, -4]")));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.finalAnswer()).isEqualTo(json("[1, 0, 3, 0]"));
        JsonNode lastError = result.variables().get("last_error");
        assertThat(lastError.path("index").asInt()).isEqualTo(3);
        assertThat(lastError.path("seq_no").asInt()).isZero();
        assertThat(lastError.path("message").asText()).contains("element 3").contains("negative -4");
        assertThat(flakyCalls.get()).isEqualTo(4);
    }

    @Test
    void the_trace_lists_the_error_of_every_failed_element_that_on_error_handled() {
        PlanVm vm = flakyVm();
        RunResult result = vm.run(
                load(vm, SOME_FAIL.formatted(", \"on_error\": {\"value\": 0}")), Map.of("xs", json("[1, -2, 3, -4]")));
        JsonNode inputs = result.trace().at("/steps/0/inputs");
        assertThat(inputs.get("handled_elements")).isEqualTo(json("[1, 3]"));
        JsonNode errors = inputs.get("element_errors");
        assertThat(errors).hasSize(2);
        assertThat(errors.get(0).get("index").asInt()).isEqualTo(1);
        assertThat(errors.get(0).get("kind").asText()).isEqualTo("tool_error");
        assertThat(errors.get(0).get("message").asText())
                .isEqualTo("for_each element 1 (of 4): tool 'flaky' failed: negative -2");
        assertThat(errors.get(1).get("message").asText())
                .isEqualTo(result.variables().get("last_error").get("message").asText());
    }

    @Test
    void the_trace_lists_the_failed_elements_of_a_map_that_jumps_on_error_too() {
        PlanVm vm = flakyVm();
        RunResult result = vm.run(
                load(vm, SOME_FAIL.formatted(", \"on_error\": {\"jump\": 3}")), Map.of("xs", json("[-1, 2, -3]")));
        JsonNode inputs = result.trace().at("/steps/0/inputs");
        assertThat(inputs.has("handled_elements")).isFalse();
        assertThat(inputs.get("element_errors"))
                .extracting(error -> error.get("index").asInt())
                .containsExactly(0, 2);
    }

    @Test
    void on_error_jump_jumps_once_every_element_has_settled() {
        PlanVm vm = flakyVm();
        RunResult result = vm.run(
                load(vm, SOME_FAIL.formatted(", \"on_error\": {\"jump\": 3}")), Map.of("xs", json("[-1, 2, 3]")));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.finalAnswer().asText()).startsWith("jumped: for_each element 0 (of 3): tool 'flaky' failed");
        assertThat(result.variables()).doesNotContainKey("out");
        assertThat(flakyCalls.get()).isEqualTo(3);
    }

    @Test
    void without_on_error_a_failed_element_fails_the_run_naming_the_element() {
        PlanVm vm = flakyVm();
        RunResult result = vm.run(load(vm, SOME_FAIL.formatted("")), Map.of("xs", json("[1, -2, -3]")));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().describe())
                .startsWith("seq_no 0 (calling): for_each element 1 (of 3): tool 'flaky' failed")
                .contains("negative -2")
                .contains("1 more element(s) failed too");
    }

    @Test
    void a_recorded_map_replays_element_by_element_from_the_cassette() {
        PlanVm vm = vm(false);
        Plan plan = load(vm, MAP_OBJECTS);
        Map<String, JsonNode> inputs = Map.of("people", json("[{\"name\": \"Ada\"}, {\"name\": \"Bo\"}]"));
        RunMode.Record recording = RunMode.record();
        RunResult recorded = vm.run(plan, inputs, recording);
        Cassette cassette = recording.recording().cassette();
        assertThat(cassette.interactions()).hasSize(2);

        RunResult replayed = PlanVm.builder().build().run(plan, inputs, RunMode.replay(cassette, false));
        assertThat(replayed.succeeded()).isTrue();
        assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());

        Map<String, JsonNode> changed = Map.of("people", json("[{\"name\": \"Ada\"}, {\"name\": \"Zed\"}]"));
        RunResult mismatch = PlanVm.builder().build().run(plan, changed, RunMode.replay(cassette, false));
        assertThat(mismatch.succeeded()).isFalse();
        assertThat(mismatch.error().describe())
                .contains("for_each element 1 (of 2)")
                .contains("cassette");
    }

    @Test
    void a_dry_run_answers_each_element_with_a_placeholder() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(
                load(vm, MAP_OBJECTS),
                Map.of("people", json("[{\"name\": \"Ada\"}, {\"name\": \"Bo\"}]")),
                RunMode.dryRun(true));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.finalAnswer().size()).isEqualTo(2);
        assertThat(result.trace().path("steps").get(0).path("inputs").path("placeholder"))
                .isEqualTo(BooleanNode.TRUE);
        assertThat(tools.calls).doesNotContainKey("object");
    }

    @Test
    void without_on_error_the_first_element_failing_fails_the_run_naming_it_before_later_failures() {
        PlanVm vm = flakyVm();
        RunResult only = vm.run(load(vm, SOME_FAIL.formatted("")), Map.of("xs", json("[-1, 2]")));
        assertThat(only.succeeded()).isFalse();
        assertThat(only.error().describe())
                .isEqualTo("seq_no 0 (calling): for_each element 0 (of 2): tool 'flaky' failed: negative -1");

        RunResult both = vm.run(load(vm, SOME_FAIL.formatted("")), Map.of("xs", json("[-1, 2, -3]")));
        assertThat(both.error().describe())
                .startsWith("seq_no 0 (calling): for_each element 0 (of 3): tool 'flaky' failed: negative -1")
                .endsWith("(1 more element(s) failed too)");
    }

    @Test
    void a_list_of_exactly_the_limit_is_mapped() {
        ArrayNode atLimit = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < ForEach.MAX_ELEMENTS; i++) {
            atLimit.add(i);
        }
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "text", "for_each": "${xs}",
                   "tool_params": {"text": "${item}"}, "output_vars": "final_answer"}}]"""), Map.of("xs", atLimit));
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer()).hasSize(ForEach.MAX_ELEMENTS);
        assertThat(result.finalAnswer().get(ForEach.MAX_ELEMENTS - 1).asText()).isEqualTo("999");
    }

    @Test
    void the_trace_shows_the_tool_the_list_each_elements_params_and_the_outputs_of_a_map() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "text", "for_each": ["a", "b"],
                   "tool_params": {"text": "${item}${index}"}, "output_vars": "final_answer"}}]"""), Map.of());
        JsonNode inputs = result.trace().at("/steps/0/inputs");
        assertThat(inputs.path("tool").asText()).isEqualTo("text");
        assertThat(inputs.get("for_each")).isEqualTo(json("[\"a\", \"b\"]"));
        assertThat(inputs.get("params")).isEqualTo(json("[{\"text\": \"a0\"}, {\"text\": \"b1\"}]"));
        assertThat(inputs.get("output")).isEqualTo(json("[\"a0\", \"b1\"]"));
        assertThat(inputs.has("element_errors")).isFalse();
        assertThat(inputs.has("handled_elements")).isFalse();
    }

    @Test
    void on_error_value_does_not_hold_back_a_wait_for_approval_of_an_element() {
        PlanVm vm = PlanVm.builder()
                .tools(tools.tools())
                .approveTools(List.of("text"))
                .build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "text", "for_each": ["a", "b"],
                   "tool_params": {"text": "${item}"}, "output_vars": "out", "on_error": {"value": "none"}}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${out}"}}]"""), Map.of());
        assertThat(result.waiting()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.pending().tool()).isEqualTo("text");
        assertThat(result.variables()).doesNotContainKey("out");
    }

    @Test
    void a_map_with_one_element_or_a_cap_of_one_calls_the_tool_on_the_runs_own_thread() {
        List<Thread> callers = new java.util.concurrent.CopyOnWriteArrayList<>();
        Tool where = Tool.of("where", "Notes the thread it runs on.", (p, c) -> {
            callers.add(Thread.currentThread());
            return p;
        });
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "where", "for_each": "${xs}",
                   "tool_params": {"x": "${item}"}, "output_vars": "final_answer"}}]""";
        PlanVm concurrent = PlanVm.builder().tools(List.of(where)).build();
        RunResult one = concurrent.run(load(concurrent, plan), Map.of("xs", json("[1]")));
        assertThat(one.finalAnswer()).isEqualTo(json("[{\"x\": 1}]"));
        assertThat(callers).containsExactly(Thread.currentThread());

        callers.clear();
        PlanVm capOne =
                PlanVm.builder().tools(List.of(where)).maxInFlightPerRun(1).build();
        RunResult three = capOne.run(load(capOne, plan), Map.of("xs", json("[1, 2, 3]")));
        assertThat(three.finalAnswer()).isEqualTo(json("[{\"x\": 1}, {\"x\": 2}, {\"x\": 3}]"));
        assertThat(callers).containsOnly(Thread.currentThread()).hasSize(3);

        callers.clear();
        RunResult two = concurrent.run(load(concurrent, plan), Map.of("xs", json("[1, 2]")));
        assertThat(two.finalAnswer()).isEqualTo(json("[{\"x\": 1}, {\"x\": 2}]"));
        assertThat(callers).hasSize(2).doesNotContain(Thread.currentThread());
    }

    @Test
    void an_element_whose_tool_answers_a_value_json_cannot_hold_fails_that_element_only() {
        for (boolean sequential : List.of(true, false)) {
            Tool nan = Tool.of(
                    "nan",
                    "Answers NaN for a negative x.",
                    (p, c) -> p.path("x").asInt() < 0
                            ? com.fasterxml.jackson.databind.node.DoubleNode.valueOf(Double.NaN)
                            : p.path("x"));
            PlanVm vm = PlanVm.builder().tool(nan).sequential(sequential).build();
            RunResult result = vm.run(load(vm, """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "nan", "for_each": [1, -2, 3],
                       "tool_params": {"x": "${item}"}, "output_vars": "final_answer", "on_error": {"value": 0}}}]"""), Map.of());
            assertThat(result.succeeded()).as("sequential " + sequential).isTrue();
            assertThat(result.finalAnswer()).isEqualTo(json("[1, 0, 3]"));
            assertThat(result.variables().get("last_error").path("message").asText())
                    .startsWith("for_each element 1 (of 3): tool 'nan' failed: ")
                    .contains("answered a value JSON cannot hold");
        }
    }

    @Test
    void the_trace_lists_the_failed_attempts_of_elements_that_were_retried() {
        AtomicInteger calls = new AtomicInteger();
        Tool once = Tool.of("once", "Fails its first call, then answers.", (p, c) -> {
            if (calls.getAndIncrement() == 0) {
                throw ToolException.transientFailure("503", null);
            }
            return p.path("x");
        });
        PlanVm vm = PlanVm.builder()
                .tool(once)
                .sequential(true)
                .retryPolicy(new dev.planvm.tools.call.RetryPolicy(2, java.time.Duration.ZERO, java.time.Duration.ZERO))
                .build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "once", "for_each": [1, 2],
                   "tool_params": {"x": "${item}"}, "output_vars": "final_answer"}}]"""), Map.of());
        assertThat(result.finalAnswer()).isEqualTo(json("[1, 2]"));
        assertThat(result.trace().at("/steps/0/inputs/attempts")).hasSize(1);
        assertThat(result.trace().at("/steps/0/inputs/attempts/0").toString()).contains("503");
    }

    @Test
    void a_dry_run_of_an_empty_list_marks_no_placeholder() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, MAP_OBJECTS), Map.of("people", json("[]")), RunMode.dryRun(true));
        assertThat(result.finalAnswer()).isEqualTo(json("[]"));
        assertThat(result.trace().at("/steps/0/inputs").has("placeholder")).isFalse();
    }

    @Test
    void an_element_whose_tool_throws_an_error_fails_that_element_naming_the_tool() {
        Tool broken = Tool.of("broken", "Throws an Error for a negative x.", (p, c) -> {
            if (p.path("x").asInt() < 0) {
                throw new AssertionError("broken tool");
            }
            return p.path("x");
        });
        PlanVm vm = PlanVm.builder().tool(broken).build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "broken", "for_each": [1, -2],
                   "tool_params": {"x": "${item}"}, "output_vars": "final_answer", "on_error": {"value": 0}}}]"""), Map.of());
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer()).isEqualTo(json("[1, 0]"));
        assertThat(result.variables().get("last_error").path("message").asText())
                .startsWith("for_each element 1 (of 2): tool 'broken' failed: ")
                .contains("broken tool");
    }

    @Test
    void an_element_that_overflows_the_stack_fails_the_run_as_exhausted_whatever_on_error_says() {
        Tool deep = Tool.of("deep", "Overflows the stack for a negative x.", (p, c) -> {
            if (p.path("x").asInt() < 0) {
                throw new StackOverflowError();
            }
            return p.path("x");
        });
        PlanVm vm = PlanVm.builder().tool(deep).build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "deep", "for_each": [1, -2],
                   "tool_params": {"x": "${item}"}, "output_vars": "final_answer", "on_error": {"value": 0}}}]"""), Map.of());
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().kind()).isEqualTo(dev.planvm.vm.run.FailureKind.LIMIT_REACHED);
        assertThat(result.error().describe()).contains("overflowed the stack");
    }

    @Test
    void interrupting_a_run_that_waits_for_its_elements_cancels_the_calls_in_flight() throws Exception {
        CountDownLatch bothIn = new CountDownLatch(2);
        CountDownLatch bothCancelled = new CountDownLatch(2);
        Tool blocking = Tool.of("blocking", "Waits until interrupted.", (p, c) -> {
            bothIn.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                bothCancelled.countDown();
                Thread.currentThread().interrupt();
            }
            return p;
        });
        PlanVm vm = PlanVm.builder().tool(blocking).build();
        Plan plan = load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "blocking", "for_each": [1, 2],
                   "tool_params": {"x": "${item}"}, "output_vars": "final_answer"}}]""");
        RunResult[] result = new RunResult[1];
        boolean[] stillInterrupted = new boolean[1];
        Thread runner = new Thread(() -> {
            result[0] = vm.run(plan, Map.of());
            stillInterrupted[0] = Thread.currentThread().isInterrupted();
        });
        runner.start();
        assertThat(bothIn.await(30, TimeUnit.SECONDS)).isTrue();
        runner.interrupt();
        runner.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(runner.isAlive()).isFalse();
        assertThat(bothCancelled.await(30, TimeUnit.SECONDS))
                .as("both calls in flight were interrupted")
                .isTrue();
        assertThat(stillInterrupted[0]).as("the run thread keeps its interrupt").isTrue();
        assertThat(result[0].succeeded()).isFalse();
        assertThat(result[0].error().describe())
                .startsWith(
                        "seq_no 0 (calling): for_each element 0 (of 2): tool 'blocking' failed: interrupted while waiting for")
                .contains("1 more element(s) failed too");
    }
}
