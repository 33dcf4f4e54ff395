package dev.planvm.cli;

import dev.planvm.vm.PlanVm;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine;

/**
 * What {@code resume}, {@code rerun}, {@code approve} and {@code answer} build to continue stored run
 * {@code runId} in this process: the VM the flags and the run's stored settings make, and the output that
 * prints the session's outcome as {@code run} prints it, each message prefixed {@code run ID}.
 */
record StoredRunSession(PlanVm vm, RunOutput output) {

    /**
     * @param trace  where to write the trace of this session's steps, or {@code null}
     * @param record where to write this session's recording ({@code approve}/{@code answer --record}), or
     *               {@code null}
     */
    static StoredRunSession of(
            String runId,
            VmOptions vmOptions,
            DurableStoreOptions store,
            Map<String, String> environment,
            Map<String, String> secrets,
            Verbosity verbosity,
            Path trace,
            Path record,
            CommandLine commandLine) {
        PlanVm vm = vmOptions.storedRun(store, environment, runId).build(environment, secrets, commandLine);
        RunOutput output = new RunOutput(
                "run " + runId,
                commandLine,
                verbosity.verbose(),
                vm.redactor(),
                trace,
                record,
                vmOptions.revealSecrets());
        return new StoredRunSession(vm, output);
    }
}
