package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm run FILE}: runs a plan (a durable run unless {@code --no-store}) and prints its {@code final_answer}. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Run a plan and print its final_answer on stdout (text as is, anything else as compact JSON).",
            "Logs, warnings and errors go to stderr."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the run succeeded",
            "1:the run failed (the message names the seq_no, type and cause), with --keep-going a step failed, or a"
                    + " block of an Idyll document failed",
            "2:the plan is invalid or cannot run here, or bad usage",
            "3:the run waits for a reviewer's approval of a tool call (--approve-tools): planvm approve RUN continues it",
            "4:the run succeeded and its plan ends in use (seed 001): the value printed goes back to the LLM that wrote"
                    + " the plan"
        })
final class RunCommand implements Callable<Integer> {

    @CommandLine.Parameters(
            index = "0",
            paramLabel = "FILE",
            description =
                    "The plan file: StackVM JSON, YAML (.yaml, .yml), a PPE script (.ai.yaml), JavaScript (.js) or an"
                            + " Idyll document (.idyll, .xml: its execution report is printed); '-' reads standard input.")
    private String file;

    @CommandLine.Mixin
    private DialectOption dialectOption;

    @CommandLine.Option(
            names = "--trace",
            paramLabel = "OUT",
            description = "Write the run's trace (JSON) to OUT, also when the run fails.")
    private Path trace;

    @CommandLine.Mixin
    private ModeOptions modeOptions;

    @CommandLine.Mixin
    private DurableStoreOptions store;

    @CommandLine.Option(
            names = "--keep-going",
            description = {
                "A failed step does not stop the run: its error is reported on stderr (and in the trace's failed_steps)"
                        + " and the run goes on with the next step; the answer is printed and the exit code is 1 when"
                        + " any step failed. Limits that protect the machine (--max-steps, memory, the run store)"
                        + " still stop it. Kept with a stored run: resume keeps going too."
            })
    private boolean keepGoing;

    @CommandLine.Option(
            names = "--no-store",
            description = "Do not keep the run in the run store (it cannot be resumed).")
    private boolean noStore;

    @CommandLine.Option(
            names = "--only",
            paramLabel = "SEQ",
            description = {
                "Run only the instruction with seq_no SEQ, with the variables given by --var, and print what it"
                        + " wrote as one JSON object (a jmp adds next_seq: where the run would go on). Nothing is"
                        + " stored. Works with --replay, --record and --dry-run."
            })
    private Integer only;

    @CommandLine.Option(
            names = "--block",
            paramLabel = "ID",
            description = "Idyll documents: run only the block with this id (its report has that one node).")
    private String block;

    @CommandLine.Option(
            names = "--write-document",
            paramLabel = "OUT",
            description = {
                "Idyll documents: write a copy of the document to OUT with each block's <result> filled in (the"
                        + " document itself is never changed)."
            })
    private Path writeDocument;

    @CommandLine.Mixin
    private VmOptions vmOptions;

    @CommandLine.Mixin
    private TemporalOptions temporal;

    @CommandLine.Mixin
    private TemporalRunOptions temporalRun;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws IOException {
        CommandLine commandLine = spec.commandLine();
        temporal.checkUsage(commandLine);
        temporalRun.checkUsage(temporal, commandLine);
        if ((block != null || writeDocument != null) && temporal.enabled()) {
            throw new CommandLine.ParameterException(
                    commandLine, "--block and --write-document run a document here: leave out --temporal");
        }
        if (only != null && (temporal.enabled() || keepGoing)) {
            throw new CommandLine.ParameterException(
                    commandLine, "--only runs one step here: leave out --temporal and --keep-going");
        }
        if (temporal.enabled()) {
            TemporalSupport.require("run --temporal", commandLine);
            return TemporalRun.run(
                    file,
                    trace,
                    modeOptions,
                    vmOptions,
                    temporal,
                    temporalRun,
                    keepGoing,
                    verbosity.verbose(),
                    commandLine);
        }
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), commandLine);
        Map<String, JsonNode> inputs = RunSettings.withSecrets(vmOptions.inputs(commandLine), secrets);
        RunMode mode = modeOptions.mode(commandLine);
        UnaryOperator<RunClock> clock = vmOptions.clock().adjust(commandLine);
        DocumentRun document = DocumentRun.of(file, dialectOption.dialect(), block, writeDocument, commandLine);
        PlanVm vm = vmOptions
                .planFiles(List.of(file), dialectOption.dialect())
                .build(parent.environment(), secrets, commandLine, TerminalApprovals.ifInteractive());
        LoadResult loaded = document != null
                ? document.load(vm, inputs.keySet(), mode, commandLine.getErr(), verbosity.verbose())
                : PlanInput.load(
                        vm, file, dialectOption.dialect(), inputs.keySet(), commandLine.getErr(), verbosity.verbose());
        if (!loaded.valid()) {
            return ExitCodes.INVALID;
        }
        RunOptions options = RunOptions.DEFAULT.withKeepGoing(keepGoing);
        RunRequest.Builder builder = RunRequest.builder(loaded.plan());
        if (document != null) {
            builder.listener(document.listener());
        }
        RunRequest request = builder.inputs(inputs)
                .mode(mode)
                .options(
                        vmOptions.clock().given()
                                ? options.withClock(clock.apply(vm.clockFor(options, mode)))
                                : options)
                .build();
        RunOutput output = new RunOutput(
                file,
                commandLine,
                verbosity.verbose(),
                vm.redactor(),
                trace,
                modeOptions.recordTo(),
                vmOptions.revealSecrets());
        output.document(document);
        try {
            if (only != null) {
                int position = OnlyStep.position(loaded.plan(), only, commandLine);
                OnlyStep.Done done = OnlyStep.run(vm, request, position);
                return output.step(done.result(), mode, done.printed());
            }
            if (noStore) {
                return output.finished(vm.run(request), mode);
            }
            try (RunStore runs = store.open(parent.environment(), vm.redactor())) {
                DurableRun run = new DurableRuns(vm, runs).start(request);
                return output.stored(run, mode, runs.file());
            }
        } catch (PlanRejectedException rejected) {
            return output.rejected(rejected);
        }
    }
}
