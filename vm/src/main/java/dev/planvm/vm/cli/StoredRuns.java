package dev.planvm.vm.cli;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.store.RunStore;
import dev.planvm.vm.store.StoreException;
import dev.planvm.vm.store.StoredRun;
import picocli.CommandLine;

/** Finding a stored run and its plan for the commands that work on stored runs. */
final class StoredRuns {

    private StoredRuns() {
    }

    /** The run, or a usage error (exit 2) that says why not. */
    static StoredRun find(RunStore store, String id, CommandLine commandLine) {
        try {
            return store.find(id).orElseThrow(() -> new CommandLine.ParameterException(commandLine,
                    "no run '" + id + "' in " + store.file() + " (see planvm runs)"));
        } catch (StoreException ambiguous) {
            throw new CommandLine.ParameterException(commandLine, ambiguous.getMessage());
        }
    }

    /** The stored run's plan, loaded again by this VM. */
    static Plan plan(PlanVm vm, StoredRun run, CommandLine commandLine) {
        LoadResult loaded = vm.loader().load(run.plan(), run.planSource());
        if (!loaded.valid()) {
            throw new CommandLine.ParameterException(commandLine, "the stored plan of run " + run.id()
                    + " does not load here: " + loaded.errors().get(0).message());
        }
        return loaded.plan();
    }
}
