package dev.planvm.vm.durable;

import dev.planvm.vm.run.RunStatus;

/** One line of {@code planvm runs}. */
public record RunSummary(String id, String planSource, RunStatus status, String startedAt, String finishedAt, int steps,
                         String parentRun) {
}
