package dev.planvm.maven;

import dev.planvm.tools.config.ToolsConfigException;
import dev.planvm.vm.batch.RegressionRun;
import dev.planvm.vm.batch.TestSetup;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;

/**
 * {@code planvm:test}: replays each plan of {@code plansDirectory} with its cassette and compares it with
 * its expectation, as {@code planvm test} does; fails the build when a plan does not meet its
 * expectation (listing the differences) or when no plan has one. Skipped with {@code -DskipTests} too.
 */
@Mojo(name = "test", defaultPhase = LifecyclePhase.VERIFY, threadSafe = true, requiresProject = false)
public class TestMojo extends PlansMojo {

    /** Skip the plan tests with the other tests ({@code -DskipTests}). */
    @Parameter(property = "skipTests", defaultValue = "false")
    boolean skipTests;

    /**
     * The tools configuration ({@code planvm.json}) whose tools the plans may call; unset: found as
     * {@code planvm test} finds it ({@code PLANVM_CONFIG}, else {@code planvm.json} in the project's
     * directory when it is there).
     */
    @Parameter(property = "planvm.config")
    File config;

    /** Variables set before each plan's first instruction, {@code NAME=VALUE} as {@code planvm test --var}. */
    @Parameter
    List<String> vars = List.of();

    /**
     * Each plan's time limit in seconds, as {@code planvm test --plan-timeout}: a plan still running then fails
     * (saying where it was) and its run is stopped, so a sleeping or hung plan cannot hang the build.
     */
    @Parameter(property = "planvm.planTimeout", defaultValue = "" + RegressionRun.DEFAULT_TIME_LIMIT_SECONDS)
    long planTimeout = RegressionRun.DEFAULT_TIME_LIMIT_SECONDS;

    /** The project's directory: a relative {@code config} and {@code planvm.json} are looked for there. */
    @Parameter(defaultValue = "${project.basedir}", readonly = true)
    File basedir;

    @Override
    String goal() {
        return "test";
    }

    @Override
    boolean skipped() {
        return skip || skipTests;
    }

    @Override
    PlanChecks.Result check(PlanChecks checks) throws MojoExecutionException {
        Path workingDir = basedir == null ? Path.of("") : basedir.toPath();
        try {
            if (planTimeout < 1) {
                throw new MojoExecutionException(
                        "planvm:test: planTimeout must be at least 1 (seconds), not " + planTimeout);
            }
            return checks.test(
                    new TestSetup(config == null ? null : config.toPath(), vars, Duration.ofSeconds(planTimeout)),
                    workingDir);
        } catch (IllegalArgumentException e) {
            throw new MojoExecutionException("planvm:test: vars: " + e.getMessage());
        } catch (ToolsConfigException e) {
            throw new MojoExecutionException("planvm:test: " + e.getMessage());
        }
    }
}
