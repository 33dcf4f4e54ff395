package dev.planvm.junit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.VariableAssignment;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.tools.config.ToolsConfigException;
import dev.planvm.vm.PlanVmBuilder;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opentest4j.AssertionFailedError;

/**
 * What {@code planvm test} gets from its flags, as {@link PlanTests} and {@link PlanTest} attributes:
 * the tools of a configuration file ({@code --config}, else {@code PLANVM_CONFIG}, else
 * {@code planvm.json} in the working directory when it is there) and variables ({@code --var}).
 *
 * @param config the configuration file's path, relative to the working directory; empty: looked for as
 *     {@code planvm test} does
 * @param vars   {@code NAME=VALUE} variables, read as {@code --var} reads them
 * @param where  the annotation these came from, for messages
 */
record PlanVmSetup(String config, List<String> vars, String where) {

    static PlanVmSetup of(PlanTests annotation) {
        return new PlanVmSetup(
                annotation.config(), List.of(annotation.vars()), "@PlanTests(\"" + annotation.value() + "\")");
    }

    static PlanVmSetup of(PlanTest annotation) {
        return new PlanVmSetup(
                annotation.config(), List.of(annotation.vars()), "@PlanTest(plan = \"" + annotation.plan() + "\")");
    }

    /**
     * The variables, in order.
     *
     * @throws AssertionFailedError naming the annotation when one is malformed
     */
    Map<String, JsonNode> inputs() {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        for (String var : vars) {
            try {
                VariableAssignment assignment = VariableAssignment.parse(var);
                inputs.put(assignment.name(), assignment.value());
            } catch (IllegalArgumentException e) {
                throw new AssertionFailedError(where + ": vars: " + e.getMessage());
            }
        }
        return inputs;
    }

    /**
     * {@code builder} with the configuration's tools installed (every tool allowed, as {@code planvm test}
     * does), or unchanged when there is no configuration.
     *
     * @throws AssertionFailedError naming the annotation and listing every problem of the configuration
     */
    PlanVmBuilder configure(PlanVmBuilder builder) {
        Map<String, String> environment = System.getenv();
        Path workingDir = Path.of("");
        Path file = ToolsConfig.locate(workingDir, environment, config.isEmpty() ? null : Path.of(config))
                .orElse(null);
        if (file == null) {
            return builder;
        }
        try {
            return builder.tools(
                    ToolsConfig.load(
                            file,
                            environment,
                            Map.of(),
                            ToolsConfig.classPathProviders(),
                            ToolsConfig.toolsPathFromEnvironment(workingDir, environment)),
                    ToolPolicy.ALLOW_ALL);
        } catch (ToolsConfigException e) {
            throw new AssertionFailedError(where + ": " + e.getMessage());
        }
    }
}
