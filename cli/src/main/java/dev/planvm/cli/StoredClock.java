package dev.planvm.cli;

import dev.planvm.instructions.expr.RunClock;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.run.RunOptions;
import java.util.function.UnaryOperator;

/** {@code resume} and {@code rerun} with {@code --now}/{@code --tz}: the stored run's clock, changed by them. */
final class StoredClock {

    private StoredClock() {}

    /**
     * The request of a session in {@code mode} that brings the clock {@code options} make of the stored run's
     * (or, for a run stored before runs had clocks, of the one the run would get); no clock when neither option
     * was given, so the stored clock applies unchanged.
     */
    static RunRequest request(
            ClockOptions options,
            UnaryOperator<RunClock> adjust,
            DurableRuns runs,
            PlanVm vm,
            String runId,
            RunMode mode) {
        if (!options.given()) {
            return RunRequest.builder().mode(mode).build();
        }
        RunClock stored = runs.find(runId).options().clock();
        RunClock base = stored != null ? stored : vm.clockFor(RunOptions.DEFAULT, mode);
        return RunRequest.builder()
                .mode(mode)
                .options(RunOptions.DEFAULT.withClock(adjust.apply(base)))
                .build();
    }
}
