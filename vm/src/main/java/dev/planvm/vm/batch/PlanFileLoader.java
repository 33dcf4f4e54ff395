package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.LoadResult;
import java.nio.file.Path;
import java.util.Map;

/**
 * How the batch and regression runners read a plan file. The VM's own loader reads StackVM JSON; the
 * CLI and the server give the runners one that reads every plan dialect (the dialects module's
 * {@code PlanSources}), so that {@code X.yaml} and {@code X.js} run, batch and test like {@code X.json}.
 */
@FunctionalInterface
public interface PlanFileLoader {

    /**
     * The plan in {@code file}, or every located diagnostic; never throws for anything the file holds.
     *
     * @param inputs the variables the run will be given (a dialect plan may read them by name)
     */
    LoadResult load(Path file, Map<String, JsonNode> inputs);
}
