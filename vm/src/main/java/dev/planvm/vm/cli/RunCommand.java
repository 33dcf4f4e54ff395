package dev.planvm.vm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import java.util.List;
import dev.planvm.vm.store.StoreRecorder;
import dev.planvm.vm.store.RunStore;
import dev.planvm.vm.Checkpoint;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunOptions;
import dev.planvm.vm.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm run FILE}: runs a plan and prints its {@code final_answer}. */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Run a plan and print its final_answer on stdout (text as is, anything else as compact JSON).",
                "Logs, warnings and errors go to stderr."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the run succeeded", "1:the run failed (the message names the seq_no, type and cause)",
                "2:the plan is invalid or cannot run here, or bad usage"})
final class RunCommand implements Callable<Integer> {

    @CommandLine.Parameters(index = "0", paramLabel = "FILE", description = "The plan file (JSON); '-' reads standard input.")
    private String file;

    @CommandLine.Option(names = "--trace", paramLabel = "OUT", description = "Write the run's trace (JSON) to OUT, also when the run fails.")
    private Path trace;

    @CommandLine.ArgGroup(exclusive = true)
    private Mode mode = new Mode();

    /** At most one of --record, --replay, --dry-run. */
    static final class Mode {
        @CommandLine.Option(names = "--record", paramLabel = "CASSETTE",
                description = "Record every tool call and LLM condition into CASSETTE (written atomically, also when the run fails).")
        Path record;

        @CommandLine.Option(names = "--replay", paramLabel = "CASSETTE",
                description = "Answer every tool call and LLM condition from CASSETTE; call nothing real (tools need not be installed).")
        Path replay;

        @CommandLine.Option(names = "--dry-run",
                description = "Call nothing: tools answer placeholders shaped by output_vars; LLM conditions answer --dry-run-conditions.")
        boolean dryRun;
    }

    @CommandLine.Mixin
    private StoreOptions store;

    @CommandLine.Option(names = "--no-store", description = "Do not keep the run in the run store (it cannot be resumed).")
    private boolean noStore;

    @CommandLine.Option(names = "--replay-timing", description = "With --replay, wait each interaction's recorded duration.")
    private boolean replayTiming;

    @CommandLine.Option(names = "--dry-run-conditions", paramLabel = "true|false", defaultValue = "false", arity = "1",
            description = "What LLM conditions answer in a dry run (default: ${DEFAULT-VALUE}).")
    private boolean dryRunConditions;

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
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), spec.commandLine());
        Map<String, JsonNode> inputs = RunSettings.withSecrets(vmOptions.inputs(spec.commandLine()), secrets);
        if (replayTiming && mode.replay == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--replay-timing needs --replay");
        }
        RunOptions options;
        try {
            options = mode.replay != null ? RunOptions.replay(Cassette.read(mode.replay), replayTiming)
                    : mode.record != null ? RunOptions.recording()
                    : mode.dryRun ? RunOptions.dryRun(dryRunConditions)
                    : RunOptions.LIVE;
        } catch (CassetteException e) {
            err.println("planvm: " + e.getMessage());
            return ExitCodes.INVALID;
        }
        PlanVm vm = vmOptions.builder(parent.environment(), secrets, spec.commandLine()).build();
        LoadResult loaded = file.equals("-") ? vm.loader().load(System.in, "<stdin>") : vm.loader().load(Path.of(file));
        for (Diagnostic diagnostic : loaded.diagnostics()) {
            if (diagnostic.isError() || verbosity.verbose()) {
                err.println(diagnostic.format(file));
            }
        }
        if (!loaded.valid()) {
            return ExitCodes.INVALID;
        }
        Plan plan = loaded.plan();
        RunOutput output = new RunOutput(file, out, err, verbosity.verbose(), vm.redactor());
        List<String> problems = vm.problems(plan, options);
        if (!problems.isEmpty()) {
            return output.rejected(new PlanRejectedException(problems));
        }
        if (noStore) {
            return output.finished(vm.run(plan, inputs, options), trace, mode.record);
        }
        try (RunStore runs = store.open(parent.environment(), vm.redactor())) {
            String id = runs.createRun(plan, inputs, options.mode(), null, null);
            RunResult result = vm.run(plan, Checkpoint.start(inputs), options, List.of(new StoreRecorder(runs, id, plan, 0, 1)));
            int code = output.finished(result, trace, mode.record);
            if (!result.succeeded()) {
                err.println("run " + id + " is stored: planvm show " + id + " shows it, planvm resume " + id + " continues it");
            } else if (verbosity.verbose()) {
                err.println("run " + id + " is stored in " + runs.file());
            }
            return code;
        }
    }
}
