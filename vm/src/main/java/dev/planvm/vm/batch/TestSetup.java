package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.VariableAssignment;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.tools.config.ToolsConfigException;
import dev.planvm.vm.PlanVmBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code planvm test} takes from its flags, for the other ways of running plan tests
 * ({@code @PlanTests}, {@code @PlanTest}, the Maven plugin): the tools of a configuration file
 * ({@code --config}, else {@code PLANVM_CONFIG}, else {@code planvm.json} in the working directory when
 * it is there), variables ({@code --var NAME=VALUE}, read by {@link VariableAssignment}) and each plan's
 * time limit ({@code --plan-timeout}).
 *
 * @param config      the configuration file, relative to the working directory, or {@code null}: looked for
 *     as {@code planvm test} does
 * @param vars        {@code NAME=VALUE} variables
 * @param planTimeout each plan's time limit ({@link RegressionRun#withTimeLimit}); positive
 */
public record TestSetup(Path config, List<String> vars, Duration planTimeout) {

    public TestSetup {
        vars = List.copyOf(vars);
        if (planTimeout == null || planTimeout.isNegative() || planTimeout.isZero()) {
            throw new IllegalArgumentException("a plan's time limit must be a positive number of seconds, not "
                    + (planTimeout == null ? "none" : planTimeout.toMillis() / 1000.0));
        }
    }

    /** A setup with the default time limit ({@link RegressionRun#DEFAULT_TIME_LIMIT}). */
    public TestSetup(Path config, List<String> vars) {
        this(config, vars, RegressionRun.DEFAULT_TIME_LIMIT);
    }

    /**
     * The variables, in order.
     *
     * @throws IllegalArgumentException saying which one is malformed and why
     */
    public Map<String, JsonNode> inputs() {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        for (String var : vars) {
            VariableAssignment assignment = VariableAssignment.parse(var);
            inputs.put(assignment.name(), assignment.value());
        }
        return inputs;
    }

    /**
     * {@code builder} with the configuration's tools installed, every tool allowed (as {@code planvm
     * test} does), or unchanged when there is no configuration.
     *
     * @param workingDir  what relative paths are relative to
     * @param environment the environment ({@code PLANVM_CONFIG}, {@code PLANVM_TOOLS_PATH}, and what the tools read)
     * @throws ToolsConfigException listing every problem of the configuration
     */
    public PlanVmBuilder configure(PlanVmBuilder builder, Path workingDir, Map<String, String> environment) {
        Path file = ToolsConfig.locate(workingDir, environment, config).orElse(null);
        if (file == null) {
            return builder;
        }
        return builder.tools(
                ToolsConfig.load(
                        file,
                        environment,
                        Map.of(),
                        ToolsConfig.classPathProviders(),
                        ToolsConfig.toolsPathFromEnvironment(workingDir, environment)),
                ToolPolicy.ALLOW_ALL);
    }
}
