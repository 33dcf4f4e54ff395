package dev.planvm.vm.plantools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a plan tool needs of the VM that offers it: running its plan as a child run, and the VM's tools. */
public interface ChildRuns {

    /**
     * Runs {@code plan} from its start with these variables.
     *
     * @return the child's result, or the problems that refused it before it ran
     */
    Outcome run(Plan plan, Map<String, JsonNode> inputs);

    /** The VM's tool of this name (any spelling), if it has one. */
    Optional<Tool> tool(String name);

    /** A child run's result, or why it could not run here. */
    record Outcome(RunResult result, List<String> refused) {}
}
