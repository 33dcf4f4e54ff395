package dev.planvm.maven;

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

    @Override
    String goal() {
        return "test";
    }

    @Override
    boolean skipped() {
        return skip || skipTests;
    }

    @Override
    PlanChecks.Result check(PlanChecks checks) {
        return checks.test();
    }
}
