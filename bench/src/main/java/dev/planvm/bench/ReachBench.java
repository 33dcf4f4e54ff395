package dev.planvm.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The reach analysis timed per plan in wall-clock and CPU time of this thread (the JMH benchmark {@link ReachBenchmark}
 * reports wall-clock only, which a loaded machine inflates): the 100-instruction plan checked against a policy of every
 * kind, and the valid corpus plans in turn. {@code bench/run --main dev.planvm.bench.ReachBench [--rounds N]}: N
 * rounds (default 5) of 2,000 analyses each after 2 rounds of warm-up; the median round is printed. Then a hostile
 * plan of 10,000 calls of 10,000 different tools checked against every tool's count and approval.
 */
public final class ReachBench {

    private ReachBench() {}

    public static void main(String[] args) {
        int rounds = args.length == 2 && args[0].equals("--rounds") ? Integer.parseInt(args[1]) : 5;
        ReachBenchmark state = new ReachBenchmark();
        state.load();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (String shape : new String[] {"hundred", "corpus"}) {
            double[] wall = new double[rounds];
            double[] cpu = new double[rounds];
            for (int round = -2; round < rounds; round++) {
                int n = 2000;
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    Object reach = shape.equals("hundred") ? state.hundred() : state.corpus();
                    if (reach == null) {
                        throw new IllegalStateException();
                    }
                }
                long t1 = System.nanoTime();
                long c1 = threads.getCurrentThreadCpuTime();
                if (round >= 0) {
                    wall[round] = (t1 - t0) / 1e3 / n;
                    cpu[round] = (c1 - c0) / 1e3 / n;
                }
            }
            java.util.Arrays.sort(wall);
            java.util.Arrays.sort(cpu);
            System.out.printf(
                    "%-8s %8.1f µs/plan wall, %8.1f µs/plan CPU (median of %d rounds)%n",
                    shape, wall[rounds / 2], cpu[rounds / 2], rounds);
        }
        hostile(threads);
    }

    /** A hostile plan: 10,000 calls of 10,000 different tools, each passing on the last output; median of 3. */
    private static void hostile(ThreadMXBean threads) {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 10_000; i++) {
            json.append(i == 0 ? "" : ",")
                    .append("{\"seq_no\":")
                    .append(i)
                    .append(",\"type\":\"calling\",\"parameters\":{\"tool_name\":\"t")
                    .append(i)
                    .append("\",\"tool_params\":{\"x\":\"${v")
                    .append(Math.max(0, i - 1))
                    .append("}\"},\"output_vars\":\"v")
                    .append(i)
                    .append("\"}}");
        }
        dev.planvm.instructions.Plan plan = new dev.planvm.instructions.PlanLoader()
                .load(json.append("]").toString(), "hostile.json")
                .planOrThrow();
        dev.planvm.instructions.reach.ReachPolicy policy = new dev.planvm.instructions.reach.ReachPolicy(
                java.util.Set.of("side_effects"), java.util.Map.of("*", 5L), java.util.List.of());
        double[] wall = new double[3];
        double[] cpu = new double[3];
        for (int round = 0; round < 3; round++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            dev.planvm.instructions.reach.PlanReach.analyze(
                    plan, dev.planvm.instructions.reach.ToolFacts.NONE, java.util.Set.of(), policy);
            wall[round] = (System.nanoTime() - t0) / 1e6;
            cpu[round] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
        }
        java.util.Arrays.sort(wall);
        java.util.Arrays.sort(cpu);
        System.out.printf(
                "hostile  %8.0f ms/plan wall, %8.0f ms/plan CPU (10,000 calls of 10,000 tools, median of 3)%n",
                wall[1], cpu[1]);
    }
}
