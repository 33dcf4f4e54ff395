package dev.planvm.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Wall time of a parallel map against its critical path: a {@code for_each} step maps
 * {@code --elements} elements (20) over a tool that sleeps {@code --sleep-ms} (200) with the run's
 * in-flight cap at least the element count; the critical path is one call. The same work as a
 * {@code jmp} loop (one call per iteration, each waiting for the last) is the baseline. Prints the
 * median wall time of {@code --runs} runs (5, after one warm-up) and wall / critical path for both.
 *
 * <p>{@code bench/run --main dev.planvm.bench.ForEachBench [--elements N] [--sleep-ms MS] [--runs R]}
 */
public final class ForEachBench {

    public static void main(String[] args) {
        int elements = 20;
        long sleepMs = 200;
        int runs = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--elements" -> elements = Integer.parseInt(args[++i]);
                case "--sleep-ms" -> sleepMs = Long.parseLong(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        long sleep = sleepMs;
        Tool slow = Tool.of("slow", "Sleeps, then returns its params.", (params, context) -> {
            try {
                Thread.sleep(sleep);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return params;
        });
        PlanVm vm = PlanVm.builder()
                .tools(List.of(slow))
                .maxInFlightPerRun(Math.max(elements, PlanVm.DEFAULT_MAX_IN_FLIGHT))
                .build();
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < elements; i++) {
            list.add("e" + i);
        }
        Plan map = vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow", "for_each": "${xs}",
                   "tool_params": {"x": "${item}", "i": "${index}"}, "output_vars": "final_answer"}}]""", "for-each").planOrThrow();
        Plan loop = vm.loader().load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition": "${i < len(xs)}", "jump_if_true": 2, "jump_if_false": 5}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "slow",
                   "tool_params": {"i": "${i}"}, "output_vars": "one"}},
                 {"seq_no": 3, "type": "assign", "parameters": {"i": "${i + 1}"}},
                 {"seq_no": 4, "type": "jmp", "parameters": {"target_seq": 1}},
                 {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${i}"}}]""", "jmp-loop").planOrThrow();
        Map<String, com.fasterxml.jackson.databind.JsonNode> inputs = Map.of("xs", list);
        double mapMs = median(vm, map, inputs, runs, elements);
        double loopMs = median(vm, loop, inputs, runs, elements);
        System.out.printf(
                "for_each: %d elements x %d ms, in-flight cap %d: wall %.0f ms, critical path %d ms, wall/critical %.2f%n",
                elements, sleepMs, Math.max(elements, PlanVm.DEFAULT_MAX_IN_FLIGHT), mapMs, sleepMs, mapMs / sleepMs);
        System.out.printf(
                "jmp loop: %d iterations x %d ms: wall %.0f ms, wall/critical %.2f, for_each speed-up %.1fx%n",
                elements, sleepMs, loopMs, loopMs / sleepMs, loopMs / mapMs);
        vm.close();
    }

    private static double median(
            PlanVm vm, Plan plan, Map<String, com.fasterxml.jackson.databind.JsonNode> inputs, int runs, int elements) {
        List<Double> walls = new ArrayList<>();
        for (int r = 0; r <= runs; r++) {
            long start = System.nanoTime();
            RunResult result = vm.run(plan, inputs);
            double ms = (System.nanoTime() - start) / 1e6;
            boolean complete = result.finalAnswer().isArray()
                    ? result.finalAnswer().size() == elements
                    : result.finalAnswer().asInt() == elements;
            if (!result.succeeded() || !complete) {
                throw new IllegalStateException("the benchmark plan failed: "
                        + (result.error() == null
                                ? result.finalAnswer()
                                : result.error().describe()));
            }
            if (r > 0) {
                walls.add(ms); // the first run warms up
            }
        }
        double[] sorted =
                walls.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }

    private ForEachBench() {}
}
