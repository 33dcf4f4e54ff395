package dev.planvm.vm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.Checkpoint;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunOptions;
import dev.planvm.vm.store.RunStore;
import dev.planvm.vm.store.ServedCalls;
import dev.planvm.vm.store.StoreRecorder;
import dev.planvm.vm.store.StoredRun;
import dev.planvm.vm.store.StoredStep;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm rerun RUN --from SEQ}: a new run that keeps the committed state of RUN before
 * {@code SEQ} and executes from there, with edited inputs.
 */
@Command(name = "rerun", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Start a new run from a stored run's state before a seq_no, with edited inputs.",
                "The new run keeps what RUN committed before it first reached SEQ and runs from SEQ, with inputs",
                "edited by --var (they override the variables at SEQ too). The new run records its parent."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run succeeded", "1:the run failed", "2:no such run or seq_no, cannot run here, or bad usage"})
final class RerunCommand implements Callable<Integer> {

    @CommandLine.Parameters(index = "0", paramLabel = "RUN", description = "The run id (or an unambiguous prefix).")
    private String runId;

    @CommandLine.Option(names = "--from", paramLabel = "SEQ", required = true, description = "The seq_no to run from.")
    private int fromSeq;

    @CommandLine.Mixin
    private StoreOptions store;

    @CommandLine.Option(names = "--replay", paramLabel = "CASSETTE",
            description = "Answer calls from CASSETTE (the interactions the kept steps used are skipped).")
    private Path replay;

    @CommandLine.Option(names = "--trace", paramLabel = "OUT", description = "Write the trace of the new run's steps to OUT.")
    private Path trace;

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
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), commandLine);
        Map<String, JsonNode> edits = RunSettings.withSecrets(vmOptions.inputs(commandLine), secrets);
        try (RunStore runs = store.open(parent.environment(), Redactor.of(secrets))) {
            StoredRun run = StoredRuns.find(runs, runId, commandLine);
            PlanVm vm = vmOptions.builder(parent.environment(), secrets, commandLine).build();
            Plan plan = StoredRuns.plan(vm, run, commandLine);
            int position;
            try {
                position = plan.positionOf(fromSeq);
            } catch (NoSuchElementException e) {
                throw new CommandLine.ParameterException(commandLine, "--from " + fromSeq + ": no instruction has that seq_no");
            }
            List<StoredStep> kept = keptSteps(run, position, commandLine);
            Map<String, JsonNode> inputs = new LinkedHashMap<>(run.inputs());
            inputs.putAll(edits);
            Map<String, JsonNode> variables = StoredRun.variablesAfter(kept, run.inputs());
            variables.putAll(edits);
            RunOptions options;
            try {
                options = replay == null ? RunOptions.LIVE
                        : RunOptions.replay(Cassette.read(replay).remaining(ServedCalls.of(kept)), false);
            } catch (CassetteException e) {
                commandLine.getErr().println("planvm: " + e.getMessage());
                return ExitCodes.INVALID;
            }
            String newRun = runs.createRun(plan, inputs, options.mode(), run.id(), fromSeq);
            for (StoredStep step : kept) {
                runs.commitStep(newRun, step);
            }
            commandLine.getErr().println("run " + newRun + ": rerun of " + run.id() + " from seq_no " + fromSeq
                    + " (" + kept.size() + " committed steps kept)");
            RunOutput output = new RunOutput("run " + newRun, commandLine.getOut(), commandLine.getErr(),
                    verbosity.verbose(), vm.redactor());
            StoreRecorder recorder = new StoreRecorder(runs, newRun, plan, kept.size(), 1);
            try {
                return output.finished(vm.run(plan, new Checkpoint(position, kept.size(), variables), options,
                        List.of(recorder)), trace, null);
            } catch (PlanRejectedException rejected) {
                return output.rejected(rejected);
            }
        }
    }

    /**
     * The committed steps before the first step at {@code position}; when the run never ran it,
     * all its steps if that is where the run stopped (a failed step), else a usage error.
     */
    private List<StoredStep> keptSteps(StoredRun run, int position, CommandLine commandLine) {
        List<StoredStep> steps = run.steps();
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).seqNo() == fromSeq) {
                return steps.subList(0, i);
            }
        }
        if (run.checkpoint().position() == position) {
            return steps;
        }
        throw new CommandLine.ParameterException(commandLine, "run " + run.id() + " never reached seq_no " + fromSeq
                + ", so there is no state to start it from (it ran seq_nos "
                + steps.stream().map(s -> String.valueOf(s.seqNo())).distinct().reduce((a, b) -> a + ", " + b).orElse("none")
                + ")");
    }
}
