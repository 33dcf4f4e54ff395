package dev.planvm.junit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.config.ToolsConfigException;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.batch.TestSetup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.opentest4j.AssertionFailedError;

/**
 * The {@code config} and {@code vars} of a {@link PlanTests} or {@link PlanTest} annotation as a
 * {@link TestSetup} ({@code planvm test --config --var}), whose problems fail the test naming the
 * annotation.
 *
 * @param setup what the attributes say
 * @param where the annotation, for messages
 */
record PlanVmSetup(TestSetup setup, String where) {

    static PlanVmSetup of(PlanTests annotation) {
        return of(
                annotation.config(),
                annotation.vars(),
                annotation.planTimeoutSeconds(),
                "@PlanTests(\"" + annotation.value() + "\")");
    }

    static PlanVmSetup of(PlanTest annotation) {
        return of(
                annotation.config(),
                annotation.vars(),
                annotation.planTimeoutSeconds(),
                "@PlanTest(plan = \"" + annotation.plan() + "\")");
    }

    private static PlanVmSetup of(String config, String[] vars, long planTimeoutSeconds, String where) {
        if (planTimeoutSeconds < 1) {
            throw new AssertionFailedError(
                    where + ": planTimeoutSeconds must be at least 1, not " + planTimeoutSeconds);
        }
        return new PlanVmSetup(
                new TestSetup(
                        config.isEmpty() ? null : Path.of(config),
                        List.of(vars),
                        Duration.ofSeconds(planTimeoutSeconds)),
                where);
    }

    /** Each plan's time limit. */
    Duration planTimeout() {
        return setup.planTimeout();
    }

    /** The variables; a malformed one fails naming the annotation. */
    Map<String, JsonNode> inputs() {
        try {
            return setup.inputs();
        } catch (IllegalArgumentException e) {
            throw new AssertionFailedError(where + ": vars: " + e.getMessage());
        }
    }

    /** {@code builder} with the configuration's tools; a configuration with a problem fails naming the annotation. */
    PlanVmBuilder configure(PlanVmBuilder builder) {
        try {
            return setup.configure(builder, Path.of(""), System.getenv());
        } catch (ToolsConfigException e) {
            throw new AssertionFailedError(where + ": " + e.getMessage());
        }
    }
}
