package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConcurrentCallsTest {

    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger maxRunning = new AtomicInteger();
    private final List<String> order = Collections.synchronizedList(new ArrayList<>());

    private Tool slow(String name, long millis, boolean sideEffects) {
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
                maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                order.add("start " + context.seqNo());
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                order.add("end " + context.seqNo());
                running.decrementAndGet();
                return TextNode.valueOf(name + "(" + params.path("q").asText() + ")");
            }
        };
    }

    /** Three independent searches, then a summary reading all three. */
    private static final String FAN_IN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "a"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "b"}, "output_vars": "b"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "c"}, "output_vars": "c"}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "${a}+${b}+${c}"}, "output_vars": "final_answer"}}]""";

    private RunResult run(PlanVm vm, String json) {
        Plan plan = vm.loader().load(json, "p").planOrThrow();
        return vm.run(plan, Map.of());
    }

    @Test
    void independent_calls_overlap_and_the_dependent_one_waits_for_them() {
        PlanVm vm = PlanVm.builder().tool(slow("search", 150, false)).build();
        RunResult result = run(vm, FAN_IN);
        assertThat(result.finalAnswer().asText()).isEqualTo("search(search(a)+search(b)+search(c))");
        assertThat(maxRunning).as("calls running at once").hasValue(3);
        assertThat(order.indexOf("start 3"))
                .isGreaterThan(order.lastIndexOf("end 2"))
                .isGreaterThan(order.indexOf("end 0"));
        assertThat(result.trace().at("/early_calls/used").asInt())
                .isEqualTo(3); // 1 and 2, then 3 from forwarded answers
    }

    @Test
    void sequential_runs_one_call_at_a_time() {
        PlanVm vm = PlanVm.builder()
                .tool(slow("search", 20, false))
                .sequential(true)
                .build();
        assertThat(run(vm, FAN_IN).finalAnswer().asText()).isEqualTo("search(search(a)+search(b)+search(c))");
        assertThat(maxRunning).hasValue(1);
    }

    @Test
    void a_tool_concurrency_limit_holds_across_runs() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(slow("search", 30, false))
                .toolConcurrency("search", 2)
                .build();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread thread = new Thread(() -> run(vm, FAN_IN));
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(maxRunning).hasValue(2);
    }

    @Test
    void the_in_flight_limit_bounds_calls_started_early_in_one_run() {
        PlanVm vm = PlanVm.builder()
                .tool(slow("search", 50, false))
                .maxInFlightPerRun(1)
                .build();
        run(vm, FAN_IN);
        assertThat(maxRunning.get()).isLessThanOrEqualTo(2); // the call at its turn + one started early
    }

    @Test
    void a_side_effecting_call_waits_for_earlier_calls_and_later_calls_wait_for_it() {
        PlanVm vm = PlanVm.builder()
                .tool(slow("search", 60, false))
                .tool(slow("send", 60, true))
                .build();
        RunResult result = run(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "a"}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send", "tool_params": {"q": "mail"}, "output_vars": "sent"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "c"}, "output_vars": "final_answer"}}]""");
        assertThat(result.succeeded()).isTrue();
        assertThat(order).containsExactly("start 0", "end 0", "start 1", "end 1", "start 2", "end 2");
    }

    @Test
    void a_failure_discards_calls_started_after_it_and_reports_the_sequential_error() {
        PlanVm vm = PlanVm.builder().tool(slow("search", 40, false)).build();
        RunResult result = run(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "a"}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"x": "${missing}"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "c"}, "output_vars": "c"}}]""");
        assertThat(result.error().describe()).startsWith("seq_no 1 (assign)");
        assertThat(result.variables()).containsOnlyKeys("a");
        assertThat(result.trace().path("steps")).hasSize(2);
    }
}
