package dev.planvm.junit;

import dev.planvm.vm.run.RunResult;

/**
 * Assertions for hand-written tests of a run, each failing with a message that says what the run did
 * instead:
 *
 * <pre>{@code
 * RunResult run = vm.run(plan, Map.of());
 * assertThat(run).succeeded().wrote("total", "42").finalAnswer("{\"total\": 42}");
 * assertThat(failing).failedAt(3);
 * }</pre>
 */
public final class PlanAssertions {

    private PlanAssertions() {}

    /** Assertions about {@code run}. */
    public static RunAssert assertThat(RunResult run) {
        return new RunAssert(run);
    }
}
