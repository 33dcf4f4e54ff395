package dev.planvm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Figures for the plan dialects: how long compiling (and compiling plus loading) YAML and
 * JavaScript-subset plans takes as they grow (after 3 s of warm-up each), and what the dataflow order buys at run time — a
 * plan of K independent lookups feeding one result, replayed with each lookup's recorded latency,
 * on the concurrent VM and on a sequential one.
 *
 * <p>{@code bench/run --main dev.planvm.bench.DialectsBench [--latency MS] [--fan K]}
 */
public final class DialectsBench {

    public static void main(String[] args) {
        long latency = 200;
        int fan = 8;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--latency")) {
                latency = Long.parseLong(args[++i]);
            } else if (args[i].equals("--fan")) {
                fan = Integer.parseInt(args[++i]);
            }
        }
        System.out.printf(
                "dialects: compile and load times (median of runs after warm-up), JDK %s, %d cores%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors());
        System.out.printf(
                "%-6s %8s %10s %12s %12s %14s%n",
                "dialect", "aliases", "KiB", "compile ms", "+load ms", "MiB/s compile");
        for (int aliases : new int[] {10, 100, 1000, 4000}) {
            row(Dialect.YAML, aliases, yaml(aliases));
            row(Dialect.JS, aliases, js(aliases));
        }
        // worst cases near the 5 MiB limit: 64 Ki-character lines (the longest allowed), and many short lines
        StringBuilder longLines = new StringBuilder("result:\n  search:\n    q:\n");
        String line = "      - " + "a".repeat(65_536 - 8) + "\n";
        while (longLines.length() + line.length() < 5 * 1024 * 1024) {
            longLines.append(line);
        }
        row(Dialect.YAML, 1, longLines.toString());
        String block =
                "result:\n  search:\n    q: |\n" + ("      " + "x".repeat(93) + "\n").repeat(5 * 1024 * 1024 / 100 - 1);
        row(Dialect.YAML, 1, block);
        String jsBig = "return search({q: [" + "'aaaaaaaaaaaaaaaa',\n".repeat(5 * 1024 * 1024 / 20 - 10) + "]});\n";
        row(Dialect.JS, 1, jsBig);
        System.out.println();
        fanIn(fan, latency);
    }

    private static void row(Dialect dialect, int aliases, String source) {
        DialectCompiler compiler = DialectCompiler.of(dialect);
        PlanLoader loader = new PlanLoader();
        String name = "bench." + dialect.extensions().get(0);
        int runs = aliases >= 1000 || source.length() > 1_000_000 ? 11 : 41;
        double[] compile = new double[runs];
        double[] load = new double[runs];
        long warmUntil = System.nanoTime() + 3_000_000_000L; // until the JIT has settled
        while (System.nanoTime() < warmUntil) {
            compiler.compile(source, name).load(loader, name);
        }
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            Compiled compiled = compiler.compile(source, name);
            long t1 = System.nanoTime();
            if (!compiled.load(loader, name).valid()) {
                throw new IllegalStateException("bench plan does not load: " + compiled.diagnostics());
            }
            long t2 = System.nanoTime();
            compile[i] = (t1 - t0) / 1e6;
            load[i] = (t2 - t0) / 1e6;
        }
        double kib = source.getBytes(StandardCharsets.UTF_8).length / 1024.0;
        double c = median(compile);
        System.out.printf(
                "%-6s %8d %10.1f %12.2f %12.2f %14.1f%n",
                dialect.cliName(), aliases, kib, c, median(load), kib / 1024.0 / (c / 1000.0));
    }

    /** A chain of aliases, each a domain call reading the previous one, and a result. */
    static String yaml(int aliases) {
        StringBuilder sb = new StringBuilder("# generated\n");
        for (int i = 0; i < aliases; i++) {
            sb.append("a")
                    .append(i)
                    .append(":\n  search:\n    q: item ")
                    .append(i)
                    .append('\n');
            if (i > 0) {
                sb.append("    after: ${a").append(i - 1).append(".id}\n");
            }
        }
        return sb.append("result: ${a").append(aliases - 1).append("}\n").toString();
    }

    static String js(int aliases) {
        StringBuilder sb = new StringBuilder("// generated\n");
        for (int i = 0; i < aliases; i++) {
            sb.append("a").append(i).append(" = search({q: 'item ").append(i).append('\'');
            if (i > 0) {
                sb.append(", after: a").append(i - 1).append(".id");
            }
            sb.append("});\n");
        }
        return sb.append("return a").append(aliases - 1).append(";\n").toString();
    }

    /** K independent lookups and one summary that reads them all, replayed with latency. */
    private static void fanIn(int fan, long latency) {
        StringBuilder plan = new StringBuilder();
        List<Interaction> interactions = new ArrayList<>();
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode summaryParams = json.objectNode();
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < fan; i++) {
            plan.append("r")
                    .append(i)
                    .append(":\n  lookup:\n    q: q")
                    .append(i)
                    .append('\n');
            ObjectNode params = json.objectNode();
            params.putArray("q").add("q" + i);
            ObjectNode output = json.objectNode().put("answer", "a" + i);
            interactions.add(new Interaction.ToolInteraction("lookup", params, output, latency));
            all.append(i == 0 ? "" : ", ").append("r").append(i).append(".answer");
            summaryParams.withArray("parts").add("a" + i);
        }
        plan.append("result:\n  summarize:\n    parts: ${[").append(all).append("]}\n");
        ObjectNode summaryCall = json.objectNode();
        summaryCall.putArray("parts").add(summaryParams.get("parts"));
        interactions.add(new Interaction.ToolInteraction("summarize", summaryCall, json.textNode("done"), latency));
        Cassette cassette = new Cassette(interactions);
        Compiled compiled = DialectCompiler.of(Dialect.YAML).compile(plan.toString(), "fan.yaml");
        System.out.printf(
                "fan-in: %d independent lookups + 1 summary, %d ms each, replayed with timing%n", fan, latency);
        for (boolean sequential : new boolean[] {false, true}) {
            PlanVm vm = PlanVm.builder().sequential(sequential).build();
            Plan p = compiled.load(vm.loader(), "fan.yaml").planOrThrow();
            double[] walls = new double[3];
            for (int i = 0; i < walls.length; i++) {
                long t0 = System.nanoTime();
                RunResult result = vm.run(p, Map.of(), RunMode.replay(cassette, true));
                walls[i] = (System.nanoTime() - t0) / 1e6;
                if (!result.succeeded()) {
                    throw new IllegalStateException(
                            "fan-in run failed: " + result.error().describe());
                }
            }
            System.out.printf(
                    "  %-10s wall %7.0f ms (critical path %d ms, all calls in a row %d ms)%n",
                    sequential ? "sequential" : "concurrent", median(walls), 2 * latency, (fan + 1) * latency);
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
