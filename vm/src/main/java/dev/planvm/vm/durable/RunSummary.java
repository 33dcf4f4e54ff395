package dev.planvm.vm.durable;

import dev.planvm.vm.run.RunStatus;

/**
 * One line of {@code planvm runs}.
 *
 * @param live whether a live process works on the run now (its lease holds)
 */
public record RunSummary(
        String id,
        String planSource,
        RunStatus status,
        String startedAt,
        String finishedAt,
        int steps,
        String parentRun,
        boolean live) {

    /**
     * {@code running} (a live process works on it), {@code interrupted} (its process died), {@code waiting},
     * {@code succeeded}, {@code completed_with_failures}, {@code failed}.
     */
    public String state() {
        if (status == RunStatus.RUNNING) {
            return live ? "running" : "interrupted";
        }
        return status.label();
    }
}
