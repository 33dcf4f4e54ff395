package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.Batch;
import dev.planvm.vm.batch.PlanFileRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm batch PATH...}: runs many plans concurrently and reports each as a JSON line. */
@Command(
        name = "batch",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Run many plans concurrently, each in its own run, and print one JSON line per plan, in the order of the"
                    + " files: {\"file\", \"status\" (succeeded, completed_with_failures, failed, invalid or rejected), \"final_answer\", \"error\","
                    + " \"duration_ms\", \"steps\"}, \"use\": true when a plan ended in use (its answer goes back to the LLM that"
                    + " wrote it), and \"failed_steps\" when a plan went on past failed steps (--keep-going).",
            "A summary (counts, wall time, plans/s, the slowest plans) goes to stderr, with a progress bar when stderr is a terminal.",
            "With --replay-dir, a plan without a cassette runs only if it calls nothing (no calling, no condition_prompt);"
                    + " one that calls a tool or an LLM is rejected without running: a replayed batch never calls anything real."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every plan succeeded",
            "1:some plan failed, was invalid or was rejected, or with --keep-going a step failed",
            "2:bad usage, or no plan file found",
            "130:interrupted (Ctrl-C or SIGTERM): the finished plans' lines are written"
        })
final class BatchCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private PlanPaths planPaths;

    @CommandLine.Option(
            names = "--concurrency",
            paramLabel = "N",
            description = "Plans in flight at once (default: " + Batch.DEFAULT_CONCURRENCY + ", for LLM-bound plans).")
    private Integer concurrency;

    @CommandLine.Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Write the JSON lines to FILE instead of stdout, each as its plan finishes (in file order).")
    private Path out;

    @CommandLine.Option(
            names = "--resume-from",
            paramLabel = "OUT",
            description =
                    "Skip the plans OUT already has a line for (an earlier, interrupted batch's --out) and append the "
                            + "others' lines to OUT.")
    private Path resumeFrom;

    @CommandLine.ArgGroup(exclusive = true)
    private Mode mode = new Mode();

    /** At most one of --replay-dir, --dry-run. */
    static final class Mode {
        @CommandLine.Option(
                names = "--replay-dir",
                paramLabel = "DIR",
                description =
                        "Replay plan X.json (X.yaml, X.js) from DIR/X.cassette.json; call nothing real. A plan without a cassette runs if it calls nothing, else is rejected.")
        Path replayDir;

        @CommandLine.Option(
                names = "--dry-run",
                description =
                        "Call nothing: tools answer placeholders shaped by output_vars; LLM conditions answer --dry-run-conditions.")
        boolean dryRun;
    }

    @CommandLine.Option(
            names = "--replay-timing",
            description = "With --replay-dir, wait each interaction's recorded duration.")
    private boolean replayTiming;

    @CommandLine.Option(
            names = "--dry-run-conditions",
            paramLabel = "true|false",
            defaultValue = "false",
            arity = "1",
            description = "What LLM conditions answer in a dry run (default: ${DEFAULT-VALUE}).")
    private boolean dryRunConditions;

    @CommandLine.Option(
            names = "--keep-going",
            description = "In each plan, go on past a step that fails (as run --keep-going): its line lists"
                    + " \"failed_steps\", and the batch exits 1 if any step failed.")
    private boolean keepGoing;

    @CommandLine.Option(names = "--no-progress", description = "Never draw the progress bar.")
    private boolean noProgress;

    @CommandLine.Mixin
    private VmOptions vmOptions;

    @CommandLine.Mixin
    private TemporalOptions temporal;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        Map<String, JsonNode> inputs = checkUsage();
        UnaryOperator<RunClock> clock = vmOptions.clock().adjust(spec.commandLine());
        List<String> files = PlanFiles.of(planPaths.paths(), false, spec.commandLine());
        temporal.checkUsage(spec.commandLine());
        if (temporal.enabled()) {
            TemporalSupport.require("batch --temporal", spec.commandLine());
            return TemporalBatch.run(
                    files,
                    concurrency,
                    out,
                    mode.replayDir,
                    mode.dryRun,
                    dryRunConditions,
                    keepGoing,
                    vmOptions,
                    temporal,
                    spec.commandLine());
        }
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), spec.commandLine());
        PlanVm vm = vmOptions
                .planFiles(files, null)
                .builder(parent.environment(), secrets, spec.commandLine())
                .tracing(false)
                .build();
        RedactingLogs.use(vm.redactor());
        PlanFileRunner runner = PlanInput.runner(vm, clock).withKeepGoing(keepGoing);
        Batch batch = batch(vm, RunSettings.withSecrets(inputs, secrets), runner);
        BatchResume resumed = resumeFrom == null ? BatchResume.none() : BatchResume.read(resumeFrom);
        List<String> toRun = files.stream().filter(file -> !resumed.done(file)).toList();
        try (Writer sink =
                StreamedBatch.sink(out, resumeFrom, spec.commandLine().getOut())) {
            BatchLines lines =
                    new BatchLines(sink, toRun.size(), vmOptions.revealSecrets() ? o -> o : runner::redacted);
            return new StreamedBatch(err, !noProgress, verbosity.verbose())
                    .run(batch, toRun, lines, resumed, files.size() - toRun.size(), resumeFrom);
        }
    }

    /** Refuses bad option values (exit 2) and returns the --var inputs. */
    private Map<String, JsonNode> checkUsage() {
        CommandLine commandLine = spec.commandLine();
        if (concurrency != null && concurrency < 1) {
            throw new CommandLine.ParameterException(commandLine, "--concurrency must be at least 1");
        }
        if (resumeFrom != null
                && out != null
                && !out.toAbsolutePath()
                        .normalize()
                        .equals(resumeFrom.toAbsolutePath().normalize())) {
            throw new CommandLine.ParameterException(
                    commandLine, "--resume-from appends to its file: give --out the same file or leave it out");
        }
        if (replayTiming && mode.replayDir == null) {
            throw new CommandLine.ParameterException(commandLine, "--replay-timing needs --replay-dir");
        }
        if (mode.replayDir != null && !Files.isDirectory(mode.replayDir)) {
            throw new CommandLine.ParameterException(
                    commandLine, "--replay-dir " + mode.replayDir + ": not a directory");
        }
        return vmOptions.inputs(commandLine);
    }

    private Batch batch(PlanVm vm, Map<String, JsonNode> inputs, PlanFileRunner runner) {
        Batch.Builder builder = Batch.builder(vm)
                .inputs(inputs)
                .runner(runner)
                .concurrency(concurrency != null ? concurrency : Batch.defaultConcurrency());
        if (mode.replayDir != null) {
            builder.replay(mode.replayDir, replayTiming);
        } else if (mode.dryRun) {
            builder.dryRun(dryRunConditions);
        }
        return builder.build();
    }
}
