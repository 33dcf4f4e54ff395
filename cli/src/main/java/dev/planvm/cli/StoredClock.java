package dev.planvm.cli;

import dev.planvm.instructions.expr.RunClock;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.run.RunHooks;
import dev.planvm.vm.run.RunOptions;
import java.util.function.UnaryOperator;

/** {@code resume} and {@code rerun} with {@code --now}/{@code --tz}: the stored run's clock, changed by them. */
final class StoredClock {

    private StoredClock() {}

    /**
     * Hooks that bring the clock {@code options} make of the stored run's (or, for a run stored before
     * runs had clocks, of the one the run would get); no hooks when neither option was given, so the
     * stored clock applies unchanged.
     */
    static RunHooks hooks(
            ClockOptions options,
            UnaryOperator<RunClock> adjust,
            DurableRuns runs,
            PlanVm vm,
            String runId,
            RunMode mode) {
        if (!options.given()) {
            return RunHooks.NONE;
        }
        RunClock stored = runs.find(runId).options().clock();
        RunClock base = stored != null ? stored : vm.clockFor(RunOptions.DEFAULT, mode);
        return RunHooks.NONE.withOptions(RunOptions.DEFAULT.withClock(adjust.apply(base)));
    }
}
