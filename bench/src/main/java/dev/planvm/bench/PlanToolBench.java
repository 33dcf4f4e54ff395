package dev.planvm.bench;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

/**
 * The overhead of a plan-tool call over running its child's steps inline (issue 23): a parent of
 * {@code --calls} N (100) dependent calls of a plan tool whose child plan is two steps (a call of an
 * instant {@code echo} tool, then {@code final_answer}), against the same 2 × N steps written inline in one
 * plan. Both run without a store and as durable runs in the run store ({@code process} durability, as
 * {@code planvm run} stores), interleaved round by round after a warm-up; prints the median wall time of
 * each over {@code --rounds} R (30) and the overhead per plan-tool call: (plan tools − inline) / N.
 *
 * <p>{@code bench/run --main dev.planvm.bench.PlanToolBench [--calls N] [--rounds R] [--warmup W]}
 */
public final class PlanToolBench {

    private static final String CHILD = """
            {"name": "wrap", "description": "Echoes its text",
             "inputs": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"text": "${text}"}, "output_vars": "e"}},
               {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${e}"}}]}""";

    public static void main(String[] args) throws Exception {
        int calls = 100;
        int rounds = 30;
        int warmup = 30;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        try (PlanVm vm = PlanVm.builder()
                .tool(Tool.of("echo", "Returns params.text", (params, context) -> params.get("text")))
                .planTool(new dev.planvm.instructions.PlanLoader()
                        .load(CHILD, "wrap.json")
                        .planOrThrow())
                .maxSteps(100_000)
                .build()) {
            Plan viaTool = vm.loader().load(viaTool(calls), "plan-tools").planOrThrow();
            Plan inline = vm.loader().load(inline(calls), "inline").planOrThrow();
            Path dir = Files.createTempDirectory("planvm-plan-tool-bench");
            try (RunStore store = RunStore.open(
                    dir.resolve("runs.db"),
                    Redactor.none(),
                    RunStore.Settings.DEFAULT.withDurability(RunStore.Durability.PROCESS))) {
                for (int w = 0; w < warmup; w++) {
                    run(vm, viaTool, null);
                    run(vm, inline, null);
                    run(vm, viaTool, store);
                    run(vm, inline, store);
                }
                long[][] nanos = new long[4][rounds];
                for (int r = 0; r < rounds; r++) {
                    nanos[0][r] = run(vm, inline, null);
                    nanos[1][r] = run(vm, viaTool, null);
                    nanos[2][r] = run(vm, inline, store);
                    nanos[3][r] = run(vm, viaTool, store);
                }
                System.out.printf(
                        "plan-tool calls: %d dependent calls of a 2-step child plan against the same %d steps inline,"
                                + " median of %d rounds after %d warm-up rounds, JDK %s%n",
                        calls, 2 * calls, rounds, warmup, Runtime.version());
                report("no store", median(nanos[0]), median(nanos[1]), calls);
                report("durable store", median(nanos[2]), median(nanos[3]), calls);
            }
        }
    }

    private static void report(String label, double inlineNanos, double toolNanos, int calls) {
        System.out.printf(
                "%-14s inline %8.2f ms | plan tools %8.2f ms | overhead per plan-tool call %8.1f µs%n",
                label, inlineNanos / 1e6, toolNanos / 1e6, (toolNanos - inlineNanos) / calls / 1e3);
    }

    /** N dependent calls of the plan tool, each passing on the last one's answer. */
    static String viaTool(int calls) {
        StringBuilder plan =
                new StringBuilder("[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"v\": \"a\"}}");
        for (int i = 1; i <= calls; i++) {
            plan.append(",\n{\"seq_no\": ")
                    .append(i)
                    .append(", \"type\": \"calling\", \"parameters\": {\"tool_name\": \"wrap\","
                            + " \"tool_params\": {\"text\": \"${v}\"}, \"output_vars\": \"v\"}}");
        }
        return plan.append(",\n{\"seq_no\": ")
                .append(calls + 1)
                .append(", \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${v}\"}}]")
                .toString();
    }

    /** The child's two steps written out N times. */
    static String inline(int calls) {
        StringBuilder plan =
                new StringBuilder("[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"v\": \"a\"}}");
        int seq = 1;
        for (int i = 1; i <= calls; i++) {
            plan.append(",\n{\"seq_no\": ")
                    .append(seq++)
                    .append(", \"type\": \"calling\", \"parameters\": {\"tool_name\": \"echo\","
                            + " \"tool_params\": {\"text\": \"${v}\"}, \"output_vars\": \"e\"}}");
            plan.append(",\n{\"seq_no\": ")
                    .append(seq++)
                    .append(", \"type\": \"assign\", \"parameters\": {\"v\": \"${e}\"}}");
        }
        return plan.append(",\n{\"seq_no\": ")
                .append(seq)
                .append(", \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${v}\"}}]")
                .toString();
    }

    /** Nanoseconds for one run, stored when {@code store} is given. */
    private static long run(PlanVm vm, Plan plan, RunStore store) {
        long start = System.nanoTime();
        RunResult result = store == null
                ? vm.run(plan, Map.of())
                : new DurableRuns(vm, store)
                        .start(plan, Map.of(), RunMode.live())
                        .result();
        long took = System.nanoTime() - start;
        if (!result.succeeded() || !result.finalAnswer().equals(TextNode.valueOf("a"))) {
            throw new IllegalStateException("the benchmark plan failed: "
                    + (result.error() == null
                            ? result.finalAnswer()
                            : result.error().describe()));
        }
        return took;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private PlanToolBench() {}
}
