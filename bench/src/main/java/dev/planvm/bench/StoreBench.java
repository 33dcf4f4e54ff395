package dev.planvm.bench;

import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.DurableRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The cost of durable steps: the same plans run with and without the SQLite run store (a row per
 * committed step, each in its own transaction), in one process, alternating, after a warm-up.
 * Prints µs per step for each and the difference: the cost of a committed step.
 *
 * <p>{@code bench/run --main dev.planvm.bench.StoreBench [--rounds N]}
 */
public final class StoreBench {

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 1 && args[0].equals("--rounds") ? Integer.parseInt(args[1]) : 10;
        PlanVm vm = PlanVm.builder().tool(Tool.of("echo", "", (params, context) -> params.get("text"))).maxSteps(100_000).build();
        Map<String, Plan> plans = Map.of(
                "assign chain 1000", vm.loader().load(PlanShapes.assignChain(1000), "assign").planOrThrow(),
                "calling chain 200", vm.loader().load(PlanShapes.callingChain(200), "calling").planOrThrow());
        Path dir = Files.createTempDirectory("planvm-store-bench");
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            System.out.printf("durable steps: SQLite WAL, synchronous=NORMAL, one transaction per committed step, JDK %s%n",
                    Runtime.version());
            for (Map.Entry<String, Plan> shape : plans.entrySet()) {
                Plan plan = shape.getValue();
                for (int warmup = 0; warmup < 3; warmup++) {
                    run(vm, plan, null);
                    run(vm, plan, store);
                }
                long plain = 0;
                long stored = 0;
                int steps = 0;
                for (int round = 0; round < rounds; round++) {
                    plain += run(vm, plan, null);
                    stored += run(vm, plan, store);
                    steps += plan.instructions().size();
                }
                double plainUs = plain / 1000.0 / steps;
                double storedUs = stored / 1000.0 / steps;
                System.out.printf("%-18s store off %7.2f µs/step, store on %7.2f µs/step: %.1f µs per committed step%n",
                        shape.getKey(), plainUs, storedUs, storedUs - plainUs);
            }
        }
    }

    /** Nanoseconds for one run, stored when {@code store} is given. */
    private static long run(PlanVm vm, Plan plan, RunStore store) {
        long start = System.nanoTime();
        RunResult result;
        if (store == null) {
            result = vm.run(plan, Map.of());
        } else {
            result = new DurableRuns(vm, store).start(plan, Map.of(), RunMode.live()).result();
        }
        if (!result.succeeded()) {
            throw new IllegalStateException(result.error().describe());
        }
        return System.nanoTime() - start;
    }
}
