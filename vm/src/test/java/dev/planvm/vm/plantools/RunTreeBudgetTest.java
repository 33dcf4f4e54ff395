package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run and every child run of its plan tools, at any depth, share one budget (issue 36 items 5 and 7): one
 * pool of call slots ({@code --max-in-flight}), so the threads a tree uses are bounded whatever its shape; one
 * step count ({@code --max-steps}); one token budget. A map's answers count toward the run's memory and store
 * limits as they arrive, so the limit stops it, not the heap.
 */
class RunTreeBudgetTest {

    /** Three levels: the root maps {@code mid} over 8 elements, {@code mid} maps {@code low}, {@code low} maps {@code leaf}. */
    private static final String MID = """
            {"name": "mid", "inputs": {"type": "object", "properties": {"xs": {"type": "array"}}},
             "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "low", "for_each": "${xs}",
                        "tool_params": {"xs": "${xs}"}, "output_vars": "final_answer"}}]}""";

    private static final String LOW = """
            {"name": "low", "inputs": {"type": "object", "properties": {"xs": {"type": "array"}}},
             "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "leaf", "for_each": "${xs}",
                        "tool_params": {"x": "${item}"}, "output_vars": "final_answer"}}]}""";

    private static final String ROOT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "mid", "for_each": "${xs}",
               "tool_params": {"xs": "${xs}"}, "output_vars": "final_answer"}}]""";

    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();
    private final AtomicInteger leafCalls = new AtomicInteger();

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private static ArrayNode list(int n) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        return list;
    }

    /** A leaf that takes {@code millis} and notes how many leaves run at once. */
    private Tool leaf(long millis) {
        return Tool.of("leaf", "waits, then echoes", (params, call) -> {
            leafCalls.incrementAndGet();
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            return params.path("x");
        });
    }

    private PlanVmBuilder tree(long leafMillis) {
        return PlanVm.builder().tool(leaf(leafMillis)).planTool(plan(MID)).planTool(plan(LOW));
    }

    @Test
    void nested_maps_of_plan_tools_keep_within_the_trees_in_flight_budget() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int before = threads.getThreadCount();
        threads.resetPeakThreadCount();
        RunResult result;
        try (PlanVm vm = tree(20).maxInFlightPerRun(8).build()) {
            result = vm.run(plan(ROOT), Map.of("xs", list(8)));
        }
        int peakThreads = threads.getPeakThreadCount() - before;

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().size()).isEqualTo(8);
        assertThat(leafCalls).as("8 x 8 x 8 leaves").hasValue(512);
        assertThat(mostAtOnce.get())
                .as("leaves at once: 8 slots beside the root run's own thread")
                .isBetween(2, 9);
        assertThat(peakThreads)
                .as("threads started for the tree (8 slots; a thread may outlive its slot by a moment)")
                .isLessThanOrEqualTo(2 * 9);
    }

    @Test
    void nested_maps_never_deadlock_on_their_slots_however_deep() {
        String l1 = """
                {"name": "l1", "inputs": {"type": "object"},
                 "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "l2", "for_each": [1, 2, 3],
                            "tool_params": {"xs": [1, 2, 3]}, "output_vars": "final_answer"}}]}""";
        String l2 = l1.replace("\"l1\"", "\"l2\"").replace("\"l2\", \"for", "\"l3\", \"for");
        String l3 = l1.replace("\"l1\"", "\"l3\"").replace("\"l2\", \"for", "\"mid\", \"for");
        try (PlanVm vm = tree(1).planTool(plan(l1))
                .planTool(plan(l2))
                .planTool(plan(l3))
                .maxInFlightPerRun(2)
                .build()) {
            RunResult result = vm.run(plan("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "l1", "for_each": [1, 2, 3],
                       "tool_params": {}, "output_vars": "final_answer"}}]"""), Map.of());
            assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        }
        assertThat(leafCalls).as("3^4 mid runs, each 3 x 3 leaves").hasValue(81 * 9);
        assertThat(mostAtOnce.get()).isLessThanOrEqualTo(3);
    }

    @Test
    void the_roots_step_limit_stops_the_whole_tree_and_on_error_does_not_catch_it() {
        AtomicInteger steps = new AtomicInteger();
        RunListener counting = new RunListener() {
            @Override
            public void stepStarted(Instruction instruction) {
                steps.incrementAndGet();
            }
        };
        String loop = """
                {"name": "spin", "inputs": {"type": "object"},
                 "plan": [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                          {"seq_no": 1, "type": "assign", "parameters": {"i": "${i + 1}"}},
                          {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${i < 1000}", "jump_if_true": 1, "jump_if_false": 3}},
                          {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${i}"}}]}""";
        RunResult result;
        try (PlanVm vm = PlanVm.builder()
                .planTool(plan(loop))
                .listener(counting)
                .maxSteps(10)
                .build()) {
            result = vm.run(plan("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "spin", "for_each": "${xs}",
                       "tool_params": {}, "output_vars": "final_answer", "on_error": {"value": "caught"}}}]"""), Map.of("xs", list(50)));
        }
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(result.error().seqNo()).isZero();
        assertThat(result.error().message()).contains("shared limit of 10 steps (--max-steps)");
        assertThat(steps)
                .as("steps executed by the root and all 50 children together")
                .hasValueLessThanOrEqualTo(10);
    }

    @Test
    void children_spend_one_token_budget_and_its_end_stops_the_parent_whatever_on_error_says() {
        AtomicInteger asked = new AtomicInteger();
        String child = """
                {"name": "ask", "inputs": {"type": "object"},
                 "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {}, "output_vars": "final_answer"}}]}""";
        RunResult result;
        try (PlanVm vm = PlanVm.builder()
                .tool(Tool.of("llm", "spends 40 tokens", (params, call) -> {
                    asked.incrementAndGet();
                    call.events().tokens(new TokenCount(30, 10));
                    return TextNode.valueOf("ok");
                }))
                .planTool(plan(child))
                .maxTokens(100)
                .maxInFlightPerRun(2)
                .build()) {
            result = vm.run(plan("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "ask", "for_each": "${xs}",
                       "tool_params": {}, "output_vars": "final_answer", "on_error": {"value": "caught"}}}]"""), Map.of("xs", list(20)));
        }
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(asked.get())
                .as("calls made before the budget of 100 tokens was spent, and those already in flight")
                .isBetween(3, 3 + 3);
    }

    @Test
    void a_maps_answers_count_toward_the_run_memory_as_they_arrive() {
        AtomicInteger calls = new AtomicInteger();
        String big = "x".repeat(64 * 1024);
        for (int inFlight : new int[] {1, 4}) {
            calls.set(0);
            RunResult result;
            try (PlanVm vm = PlanVm.builder()
                    .tool(Tool.of("big", "answers 64 Ki characters", (params, call) -> {
                        calls.incrementAndGet();
                        return TextNode.valueOf(big);
                    }))
                    .runLimits(RunLimits.DEFAULT.withMaxRunSize(1024 * 1024))
                    .maxInFlightPerRun(inFlight)
                    .build()) {
                result = vm.run(plan("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "big", "for_each": "${xs}",
                           "tool_params": {"i": "${item}"}, "output_vars": "final_answer"}}]"""), Map.of("xs", list(200)));
            }
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
            assertThat(result.error().message()).contains("for_each").contains("1 MiB (--max-run-memory)");
            assertThat(calls.get())
                    .as(
                            "elements called with %d in flight: the 16 that fit in 1 MiB, the one past it, those in flight",
                            inFlight)
                    .isBetween(15, 17 + inFlight);
        }
    }

    @Test
    void a_maps_answers_count_toward_the_stores_limit_for_the_run_as_they_arrive(@TempDir Path dir) {
        AtomicInteger calls = new AtomicInteger();
        String answer = "y".repeat(16 * 1024);
        RunStore.Settings settings = RunStore.Settings.DEFAULT.withMaxRunBytes(256 * 1024);
        try (PlanVm vm = PlanVm.builder()
                        .tool(Tool.of("mid_sized", "answers 16 Ki characters", (params, call) -> {
                            calls.incrementAndGet();
                            return TextNode.valueOf(answer);
                        }))
                        .maxInFlightPerRun(2)
                        .build();
                RunStore store = RunStore.open(dir.resolve("runs.db"), Redactor.none(), settings)) {
            DurableRun run = new DurableRuns(vm, store).start(plan("""
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "mid_sized", "for_each": "${xs}",
                               "tool_params": {"i": "${item}"}, "output_vars": "final_answer"}}]"""), Map.of("xs", list(100)), RunMode.live());
            assertThat(run.result().succeeded()).isFalse();
            assertThat(run.result().error().kind()).isEqualTo(FailureKind.STORE_FAILED);
            assertThat(run.result().error().message()).contains("--max-store-bytes");
        }
        assertThat(calls.get())
                .as("about 16 elements fit in 256 KiB; the map stopped there")
                .isLessThan(30);
    }
}
