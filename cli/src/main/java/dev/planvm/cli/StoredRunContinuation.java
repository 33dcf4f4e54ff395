package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Recording;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import java.io.IOException;
import java.util.Map;
import picocli.CommandLine;

/**
 * What {@code approve} and {@code answer} share: a stored run continued live in this process, on the VM
 * the flags build, its session's outcome printed as {@code run} prints it. A run keeps its inputs, so
 * {@code --var} is refused. With {@code --record CASSETTE} the session records too, continuing the
 * cassette that {@code run --record} wrote when the run stopped waiting ({@link Recording#continuing}), and
 * writes the whole of it when the session ends.
 */
final class StoredRunContinuation {

    /** The decision that continues the run: an approval, a denial, an answer. */
    @FunctionalInterface
    interface Decision {
        DurableRun apply(DurableRuns runs, RunRequest session, Map<String, JsonNode> secrets);
    }

    private StoredRunContinuation() {}

    /** Continues run {@code runId} with {@code decision}; the command's exit code. */
    static int run(
            String command,
            String runId,
            ContinuationOptions outputs,
            DurableStoreOptions store,
            VmOptions vmOptions,
            Verbosity verbosity,
            Map<String, String> environment,
            CommandLine commandLine,
            Decision decision)
            throws IOException {
        if (!vmOptions.inputs(commandLine).isEmpty()) {
            throw new CommandLine.ParameterException(
                    commandLine, "--var does not go with " + command + " (a run keeps its inputs)");
        }
        Map<String, String> secrets = vmOptions.secrets(environment, commandLine);
        StoredRunSession session = StoredRunSession.of(
                runId, vmOptions, store, environment, secrets, verbosity, outputs.trace, outputs.record, commandLine);
        PlanVm vm = session.vm();
        RunOutput output = session.output();
        // recording, the session continues the cassette the run's earlier sessions wrote
        RunMode mode = outputs.record == null
                ? RunMode.live()
                : new RunMode.Record(Recording.continuing(Cassette.read(outputs.record)));
        try (RunStore runs = store.open(environment, vm.redactor())) {
            DurableRun run = decision.apply(
                    new DurableRuns(vm, runs),
                    RunRequest.builder().mode(mode).build(),
                    RunSettings.withSecrets(Map.of(), secrets));
            return output.finished(run, mode, runs);
        } catch (PlanRejectedException rejected) {
            return output.rejected(rejected);
        }
    }
}
