package dev.planvm.bench;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What any run pays before the command line and the VM, for {@code bench/startup}'s floor rows: {@code json}
 * reads the plan file with Jackson (the mapper the loader uses), {@code load} loads it as {@code planvm run}
 * does (Jackson, the JSON Schema validator, the static checks). Started with the launcher's JVM settings and
 * class-data archive, beside {@code ./planvm run} in the same loop, it shows how much of a one-step run's
 * start the libraries take that every run needs. Prints the number of instructions; exit 1 if the plan is
 * invalid.
 *
 * <p>{@code java -cp planvm.jar:DIR dev.planvm.bench.StartupFloor json|load PLAN}
 */
final class StartupFloor {

    private StartupFloor() {}

    public static void main(String[] args) throws IOException {
        Path plan = Path.of(args[1]);
        switch (args[0]) {
            case "json" ->
                System.out.println(JsonMappers.mapper(JsonLimits.PLAN_FILE)
                        .readTree(plan.toFile())
                        .size());
            case "load" -> {
                LoadResult loaded = new PlanLoader().load(plan);
                if (!loaded.valid()) {
                    System.exit(1);
                }
                System.out.println(loaded.plan().instructions().size());
            }
            default -> throw new IllegalArgumentException("json or load, not " + args[0]);
        }
    }
}
