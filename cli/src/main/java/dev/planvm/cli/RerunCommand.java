package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
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

/**
 * {@code planvm rerun RUN --from SEQ}: a new run that keeps the committed state of RUN before
 * {@code SEQ} and executes from there, with edited inputs.
 */
@Command(
        name = "rerun",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Start a new run from a stored run's state before a seq_no, with edited inputs (and, with --plan, an edited plan).",
            "The new run keeps what RUN committed before it first reached SEQ and runs from SEQ, with inputs "
                    + "edited by --var (they override the variables at SEQ too). The new run records its parent."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run succeeded",
            "1:the run failed",
            "3:the run waits for approval (planvm approve)",
            "4:the run succeeded and its plan ends in use (seed 001): the value printed goes back to the LLM",
            "2:no such run or seq_no, cannot run here, or bad usage"
        })
final class RerunCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private RunIdParameter target;

    @CommandLine.Option(names = "--from", paramLabel = "SEQ", required = true, description = "The seq_no to run from.")
    private int fromSeq;

    @CommandLine.Option(
            names = "--plan",
            paramLabel = "EDITED",
            description = {
                "Run EDITED, an edited version of RUN's plan (any dialect), instead of RUN's own plan. It must keep"
                        + " every instruction before SEQ as it was (refused otherwise, naming the first changed"
                        + " seq_no): the new run keeps what those committed and runs EDITED from SEQ."
            })
    private String editedPlan;

    @CommandLine.Option(
            names = "--dialect",
            paramLabel = "yaml|js|ppe|idyll|json",
            converter = DialectConverter.class,
            description = "The dialect of --plan (default: from its file extension).")
    private Dialect dialect;

    @CommandLine.Mixin
    private DurableStoreOptions store;

    @CommandLine.Option(
            names = "--replay",
            paramLabel = "CASSETTE",
            description = "Answer calls from CASSETTE (the interactions the kept steps used are skipped).")
    private Path replay;

    @CommandLine.Option(
            names = "--trace",
            paramLabel = "OUT",
            description = "Write the trace of the new run's steps to OUT.")
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
        RunMode mode = replay == null ? RunMode.live() : RunMode.replay(Cassette.read(replay), false);
        UnaryOperator<RunClock> clock = vmOptions.clock().adjust(commandLine);
        StoredRunSession session = StoredRunSession.of(
                target.runId(), vmOptions, store, parent.environment(), secrets, verbosity, trace, null, commandLine);
        PlanVm vm = session.vm();
        Plan edited = null;
        if (editedPlan != null) {
            LoadResult loaded =
                    PlanInput.load(vm, editedPlan, dialect, edits.keySet(), commandLine.getErr(), verbosity.verbose());
            if (!loaded.valid()) {
                return ExitCodes.INVALID;
            }
            edited = loaded.plan();
        } else if (dialect != null) {
            throw new CommandLine.ParameterException(commandLine, "--dialect applies to --plan: give --plan EDITED");
        }
        RunOutput output = session.output();
        try (RunStore runs = store.open(parent.environment(), vm.redactor())) {
            DurableRuns durable = new DurableRuns(vm, runs);
            RunRequest request = StoredClock.request(vmOptions.clock(), clock, durable, vm, target.runId(), mode);
            DurableRun run = durable.run(durable.createRerun(target.runId(), fromSeq, edits, edited, request));
            commandLine
                    .getErr()
                    .println("run " + run.id() + ": rerun of " + run.parentRun() + " from seq_no " + fromSeq + " ("
                            + run.stepsBefore() + " committed steps kept"
                            + (edited == null ? "" : ", edited plan " + editedPlan) + ")");
            return output.finished(run, mode, runs);
        } catch (PlanRejectedException rejected) {
            return output.rejected(rejected);
        }
    }
}
