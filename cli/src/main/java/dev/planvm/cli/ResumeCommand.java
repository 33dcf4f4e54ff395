package dev.planvm.cli;

import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm resume RUN}: continues an interrupted or failed run after its last committed step. */
@Command(
        name = "resume",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Continue an interrupted or failed run from its last committed step, with its plan and inputs.",
            "Committed steps are not run again; the step that was running when the process died runs again "
                    + "(at-least-once for calls in flight, like Temporal activities)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run succeeded",
            "1:the run failed",
            "3:the run waits for approval (planvm approve)",
            "4:the run succeeded and its plan ends in use (seed 001): the value printed goes back to the LLM",
            "2:no such run, already succeeded, another live process works on it, cannot run here, or bad usage"
        })
final class ResumeCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private RunIdParameter target;

    @CommandLine.Mixin
    private DurableStoreOptions store;

    @CommandLine.Option(
            names = "--replay",
            paramLabel = "CASSETTE",
            description = "Answer calls from CASSETTE (the interactions the committed steps used are skipped).")
    private Path replay;

    @CommandLine.Option(
            names = "--replay-timing",
            description = "With --replay, wait each interaction's recorded duration.")
    private boolean replayTiming;

    @CommandLine.Option(
            names = "--trace",
            paramLabel = "OUT",
            description = "Write the trace of this session's steps to OUT.")
    private Path trace;

    @CommandLine.Option(
            names = "--force",
            description =
                    "Take the run over even when the process that owns it looks alive (only after making sure it died).")
    private boolean force;

    @CommandLine.Mixin
    private VmOptions vmOptions;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws IOException {
        CommandLine commandLine = spec.commandLine();
        if (!vmOptions.inputs(commandLine).isEmpty()) {
            throw new CommandLine.ParameterException(
                    commandLine,
                    "--var does not go with resume (a run keeps its inputs): use planvm rerun RUN --from SEQ --var ...");
        }
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), commandLine);
        RunMode mode = replay == null ? RunMode.live() : RunMode.replay(Cassette.read(replay), replayTiming);
        UnaryOperator<RunClock> clock = vmOptions.clock().adjust(commandLine);
        StoredRunSession session = StoredRunSession.of(
                target.runId(), vmOptions, store, parent.environment(), secrets, verbosity, trace, null, commandLine);
        PlanVm vm = session.vm();
        RunOutput output = session.output();
        try (RunStore runs = store.open(parent.environment(), vm.redactor())) {
            DurableRuns durable = new DurableRuns(vm, runs);
            RunRequest request = StoredClock.request(vmOptions.clock(), clock, durable, vm, target.runId(), mode);
            DurableRun run = durable.resume(target.runId(), request, RunSettings.withSecrets(Map.of(), secrets), force);
            return output.finished(run, mode, runs);
        } catch (PlanRejectedException rejected) {
            return output.rejected(rejected);
        }
    }
}
