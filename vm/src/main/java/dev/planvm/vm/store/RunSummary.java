package dev.planvm.vm.store;

/** One line of {@code planvm runs}. */
public record RunSummary(String id, String planSource, String status, String startedAt, String finishedAt, int steps,
                         String parentRun) {
}
