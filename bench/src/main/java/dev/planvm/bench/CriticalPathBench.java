package dev.planvm.bench;

import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Wall time of latency-bound plans against their critical path. For straight-line plans of the
 * StackVM corpus (no jmp, at least 3 calls), a cassette is recorded against instant stand-in
 * tools, then each interaction gets its tool's latency (vector_search 400 ms,
 * retrieve_knowledge_graph 600 ms, llm_generate 1500 ms, others 500 ms, times {@code --scale}).
 * Each plan is replayed with those latencies (like {@code --replay-timing}) concurrently and
 * sequentially; the critical-path bound is the longest chain of calls through the plan's
 * dependency graph. Prints one line per plan and the totals.
 *
 * <p>{@code bench/run --main dev.planvm.bench.CriticalPathBench [--plans N] [--scale S]}
 */
public final class CriticalPathBench {

    private static final Map<String, Long> LATENCY_MS =
            Map.of("vector_search", 400L, "retrieve_knowledge_graph", 600L, "llm_generate", 1500L);
    private static final long OTHER_MS = 500;

    public static void main(String[] args) throws Exception {
        int plans = 40;
        double scale = 0.25;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--plans")) {
                plans = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--scale")) {
                scale = Double.parseDouble(args[++i]);
            }
        }
        PlanVm concurrent = PlanVm.builder().build();
        PlanVm sequential = PlanVm.builder().sequential(true).build();
        System.out.printf(
                "critical path: %d straight-line corpus plans, latencies x %.2f (vector_search %d ms, "
                        + "retrieve_knowledge_graph %d ms, llm_generate %d ms), JDK %s%n",
                plans,
                scale,
                Math.round(400 * scale),
                Math.round(600 * scale),
                Math.round(1500 * scale),
                Runtime.version());
        System.out.printf(
                "%-14s %5s %9s %11s %6s %11s %8s%n",
                "plan", "calls", "bound ms", "planvm ms", "ratio", "sequential", "speedup");
        double boundTotal = 0;
        double concurrentTotal = 0;
        double sequentialTotal = 0;
        double worst = 0;
        int measured = 0;
        for (Path file : candidates()) {
            if (measured == plans) {
                break;
            }
            Plan plan = concurrent.loader().load(file).plan();
            Cassette cassette = record(plan, scale);
            if (cassette == null) {
                continue;
            }
            double bound = criticalPath(plan, scale);
            double parallel = wallMillis(concurrent, plan, cassette);
            double serial = wallMillis(sequential, plan, cassette);
            System.out.printf(
                    "%-14s %5d %9.0f %11.0f %6.3f %11.0f %7.2fx%n",
                    file.getFileName(),
                    cassette.interactions().size(),
                    bound,
                    parallel,
                    parallel / bound,
                    serial,
                    serial / parallel);
            boundTotal += bound;
            concurrentTotal += parallel;
            sequentialTotal += serial;
            worst = Math.max(worst, parallel / bound);
            measured++;
        }
        System.out.printf(
                "total: bound %.1f s, planvm %.1f s (%.3f x bound, worst plan %.3f x), sequential %.1f s: "
                        + "speed-up %.2fx over --sequential%n",
                boundTotal / 1000,
                concurrentTotal / 1000,
                concurrentTotal / boundTotal,
                worst,
                sequentialTotal / 1000,
                sequentialTotal / concurrentTotal);
    }

    /** Valid corpus plans with no jmp and at least 3 calling instructions, in file order. */
    private static List<Path> candidates() throws Exception {
        PlanVm vm = PlanVm.builder().build();
        List<Path> files;
        try (Stream<Path> list = Files.list(Corpus.directory())) {
            files = list.filter(p -> p.getFileName().toString().matches("plan-\\d+\\.json"))
                    .sorted()
                    .toList();
        }
        List<Path> straight = new ArrayList<>();
        for (Path file : files) {
            LoadResult loaded = vm.loader().load(file);
            if (!loaded.valid()) {
                continue;
            }
            List<Instruction> instructions = loaded.plan().instructions();
            long calls = instructions.stream().filter(i -> i instanceof Calling).count();
            if (calls >= 3 && instructions.stream().noneMatch(i -> i instanceof Jmp)) {
                straight.add(file);
            }
        }
        return straight;
    }

    /** The plan's stand-in cassette with every interaction given its tool's latency. */
    private static Cassette record(Plan plan, double scale) {
        Cassette recorded = StandIns.record(plan);
        if (recorded == null) {
            return null;
        }
        List<Interaction> timed = new ArrayList<>();
        for (Interaction interaction : recorded.interactions()) {
            Interaction.ToolInteraction tool = (Interaction.ToolInteraction) interaction;
            timed.add(new Interaction.ToolInteraction(
                    tool.tool(), tool.params(), tool.output(), latency(tool.tool(), scale)));
        }
        return new Cassette(timed);
    }

    private static long latency(String tool, double scale) {
        return Math.round(LATENCY_MS.getOrDefault(tool, OTHER_MS) * scale);
    }

    /** The longest chain of call latencies through the plan's reads and writes (assigns take no time). */
    static double criticalPath(Plan plan, double scale) {
        Map<String, Double> ready = new HashMap<>();
        double end = 0;
        for (Instruction instruction : plan.instructions()) {
            if (instruction instanceof Assign assign) {
                assign.values().forEach((name, value) -> ready.put(name, latest(value.variables(), ready)));
            } else if (instruction instanceof Calling calling) {
                double done = latest(calling.params().variables(), ready) + latency(calling.tool(), scale);
                calling.outputVars().names().forEach(name -> ready.put(name, done));
                end = Math.max(end, done);
            }
        }
        return end;
    }

    private static double latest(Set<String> variables, Map<String, Double> ready) {
        double latest = 0;
        for (String variable : variables) {
            latest = Math.max(latest, ready.getOrDefault(variable, 0.0));
        }
        return latest;
    }

    private static double wallMillis(PlanVm vm, Plan plan, Cassette cassette) {
        long start = System.nanoTime();
        RunResult result = vm.run(plan, Map.of(), RunMode.replay(cassette, true));
        if (!result.succeeded()) {
            throw new IllegalStateException(
                    plan.source() + ": " + result.error().describe());
        }
        return (System.nanoTime() - start) / 1e6;
    }
}
