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
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cost of durable steps: the same plans run without the run store and with it at both
 * durabilities ({@code process}: SQLite synchronous=NORMAL; {@code full}: synchronous=FULL, one
 * sync to disk per commit), in one process, interleaved round by round after a warm-up. Prints µs per
 * step for each and the cost of a committed step; then the store size after a loop re-assigning
 * one large value (values are stored once per content).
 *
 * <p>{@code bench/run --main dev.planvm.bench.StoreBench [--rounds N]}
 */
public final class StoreBench {

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 1 && args[0].equals("--rounds") ? Integer.parseInt(args[1]) : 10;
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("echo", "", (params, context) -> params.get("text")))
                .maxSteps(100_000)
                .build();
        Map<String, Plan> plans = new LinkedHashMap<>();
        plans.put(
                "assign chain 1000",
                vm.loader().load(PlanShapes.assignChain(1000), "assign").planOrThrow());
        plans.put(
                "calling chain 200",
                vm.loader().load(PlanShapes.callingChain(200), "calling").planOrThrow());
        Path dir = Files.createTempDirectory("planvm-store-bench");
        try (RunStore process = store(dir.resolve("process.db"), RunStore.Durability.PROCESS);
                RunStore full = store(dir.resolve("full.db"), RunStore.Durability.FULL)) {
            System.out.printf(
                    "durable steps: SQLite WAL, one transaction per committed step, JDK %s%n", Runtime.version());
            for (Map.Entry<String, Plan> shape : plans.entrySet()) {
                Plan plan = shape.getValue();
                for (int warmup = 0; warmup < 3; warmup++) {
                    run(vm, plan, null);
                    run(vm, plan, process);
                    run(vm, plan, full);
                }
                long plain = 0;
                long processNanos = 0;
                long fullNanos = 0;
                int steps = 0;
                for (int round = 0; round < rounds; round++) {
                    plain += run(vm, plan, null);
                    processNanos += run(vm, plan, process);
                    fullNanos += run(vm, plan, full);
                    steps += plan.instructions().size();
                }
                double off = plain / 1000.0 / steps;
                double p = processNanos / 1000.0 / steps;
                double f = fullNanos / 1000.0 / steps;
                System.out.printf(
                        "%-18s off %6.2f µs/step | process %7.2f µs/step (+%.1f) | full %7.2f µs/step (+%.1f)%n",
                        shape.getKey(), off, p, p - off, f, f - off);
            }
        }
        growth(vm, dir.resolve("growth.db"));
    }

    /** A loop re-assigning one 100,000-character value 200 times: what it costs in the store. */
    private static void growth(PlanVm vm, Path file) throws Exception {
        Plan loop = vm.loader().load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                 {"seq_no": 1, "type": "assign", "parameters": {"copy": "${big}", "i": "${i + 1}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${i < 200}", "jump_if_true": 1}}]""", "loop").planOrThrow();
        try (RunStore store = store(file, RunStore.Durability.PROCESS)) {
            new DurableRuns(vm, store)
                    .start(loop, Map.of("big", TextNode.valueOf("y".repeat(100_000))), RunMode.live());
        }
        long bytes = Files.size(file) + (Files.exists(Path.of(file + "-wal")) ? Files.size(Path.of(file + "-wal")) : 0);
        System.out.printf(
                "re-assigning a 100,000-character value 200 times: store %,d bytes (the values alone: %,d)%n",
                bytes, 200L * 100_000);
    }

    private static RunStore store(Path file, RunStore.Durability durability) {
        return RunStore.open(file, Redactor.none(), RunStore.Settings.DEFAULT.withDurability(durability));
    }

    /** Nanoseconds for one run, stored when {@code store} is given. */
    private static long run(PlanVm vm, Plan plan, RunStore store) {
        long start = System.nanoTime();
        RunResult result = store == null
                ? vm.run(plan, Map.of())
                : new DurableRuns(vm, store)
                        .start(plan, Map.of(), RunMode.live())
                        .result();
        if (!result.succeeded()) {
            throw new IllegalStateException(result.error().describe());
        }
        return System.nanoTime() - start;
    }
}
