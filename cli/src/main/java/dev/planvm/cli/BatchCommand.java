package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.Batch;
import dev.planvm.vm.batch.BatchListener;
import dev.planvm.vm.batch.BatchReport;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.PlanOutcome;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import dev.planvm.instructions.expr.RunClock;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm batch PATH...}: runs many plans concurrently and reports each as a JSON line. */
@Command(name = "batch", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Run many plans concurrently, each in its own run, and print one JSON line per plan, in the order of the"
                + " files: {\"file\", \"status\" (succeeded, failed, invalid or rejected), \"final_answer\", \"error\","
                + " \"duration_ms\", \"steps\"}.",
                "A summary (counts, wall time, plans/s, the slowest plans) goes to stderr, with a progress bar when stderr is a terminal.",
                "With --replay-dir, a plan without a cassette runs only if it calls nothing (no calling, no condition_prompt);"
                        + " one that calls a tool or an LLM is rejected without running: a replayed batch never calls anything real."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every plan succeeded", "1:some plan failed, was invalid or was rejected",
                "2:bad usage, or no plan file found", "130:interrupted (Ctrl-C or SIGTERM): the finished plans' lines are written"})
final class BatchCommand implements Callable<Integer> {

    /** Seconds the plans in flight get to finish after Ctrl-C or SIGTERM. */
    static final int STOP_GRACE_SECONDS = 10;

    @CommandLine.Parameters(arity = "1..*", paramLabel = "PATH",
            description = "Plan files (JSON, YAML or JavaScript), or directories of them (their *.json files but *.cassette.json and"
                    + " *.expected.json, and their *.yaml, *.yml and *.js files).")
    private List<String> paths;

    @CommandLine.Option(names = "--concurrency", paramLabel = "N",
            description = "Plans in flight at once (default: " + Batch.DEFAULT_CONCURRENCY + ", for LLM-bound plans).")
    private Integer concurrency;

    @CommandLine.Option(names = "--out", paramLabel = "FILE",
            description = "Write the JSON lines to FILE instead of stdout, each as its plan finishes (in file order).")
    private Path out;

    @CommandLine.Option(names = "--resume-from", paramLabel = "OUT",
            description = "Skip the plans OUT already has a line for (an earlier, interrupted batch's --out) and append the "
                    + "others' lines to OUT.")
    private Path resumeFrom;

    @CommandLine.ArgGroup(exclusive = true)
    private Mode mode = new Mode();

    /** At most one of --replay-dir, --dry-run. */
    static final class Mode {
        @CommandLine.Option(names = "--replay-dir", paramLabel = "DIR",
                description = "Replay plan X.json (X.yaml, X.js) from DIR/X.cassette.json; call nothing real. A plan without a cassette runs if it calls nothing, else is rejected.")
        Path replayDir;

        @CommandLine.Option(names = "--dry-run",
                description = "Call nothing: tools answer placeholders shaped by output_vars; LLM conditions answer --dry-run-conditions.")
        boolean dryRun;
    }

    @CommandLine.Option(names = "--replay-timing", description = "With --replay-dir, wait each interaction's recorded duration.")
    private boolean replayTiming;

    @CommandLine.Option(names = "--dry-run-conditions", paramLabel = "true|false", defaultValue = "false", arity = "1",
            description = "What LLM conditions answer in a dry run (default: ${DEFAULT-VALUE}).")
    private boolean dryRunConditions;

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
        List<String> files = PlanFiles.of(paths, false, spec.commandLine());
        temporal.checkUsage(spec.commandLine());
        if (temporal.enabled()) {
            TemporalSupport.require("batch --temporal", spec.commandLine());
            return TemporalBatch.run(files, concurrency, out, mode.replayDir, mode.dryRun, dryRunConditions, vmOptions,
                    temporal, spec.commandLine());
        }
        Map<String, String> secrets = vmOptions.secrets(parent.environment(), spec.commandLine());
        PlanVm vm = vmOptions.builder(parent.environment(), secrets, spec.commandLine()).tracing(false).build();
        RedactingLogs.use(vm.redactor());
        PlanFileRunner runner = PlanInput.runner(vm, clock);
        Batch batch = batch(vm, RunSettings.withSecrets(inputs, secrets), runner);
        BatchResume resumed = resumeFrom == null ? BatchResume.none() : BatchResume.read(resumeFrom);
        List<String> toRun = files.stream().filter(file -> !resumed.done(file)).toList();
        try (Writer sink = sink()) {
            BatchLines lines = new BatchLines(sink, toRun.size(), vmOptions.revealSecrets() ? o -> o : runner::redacted);
            return run(batch, toRun, lines, resumed, files.size() - toRun.size());
        }
    }

    /**
     * Runs the plans, streaming their lines; Ctrl-C or SIGTERM stops the batch (no plan starts, those
     * in flight get {@value #STOP_GRACE_SECONDS} s to finish), writes what finished and the summary, and
     * exits 130.
     */
    private int run(Batch batch, List<String> toRun, BatchLines lines, BatchResume resumed, int skipped)
            throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        Batch.Stop stop = new Batch.Stop();
        CountDownLatch written = new CountDownLatch(1);
        Thread onSignal = new Thread(() -> {
            stop.request(Duration.ofSeconds(STOP_GRACE_SECONDS));
            try {
                written.await(STOP_GRACE_SECONDS + 10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Runtime.getRuntime().halt(ExitCodes.INTERRUPTED);
        }, "planvm-batch-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);
        long start = System.nanoTime();
        try {
            List<PlanOutcome> outcomes;
            try (BatchProgress progress = noProgress ? BatchProgress.silent() : BatchProgress.forTerminal(toRun.size())) {
                outcomes = batch.run(toRun.stream().map(Path::of).toList(), BatchListener.both(lines, progress), stop);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop.request(Duration.ZERO);
                outcomes = List.of();
            }
            lines.flushFinished();
            lines.throwIfFailed();
            List<PlanOutcome> finished = outcomes.stream().filter(Objects::nonNull).toList();
            BatchReport report = new BatchReport(finished, Duration.ofNanos(System.nanoTime() - start));
            if (verbosity.verbose()) {
                finished.stream().filter(o -> !o.succeeded())
                        .forEach(o -> err.println(TerminalText.safe(o.file() + ": " + o.status().label() + ": " + o.error())));
            }
            if (stop.requested()) {
                err.println("batch: interrupted: " + finished.size() + " of " + toRun.size() + " plans finished; planvm batch "
                        + "--resume-from OUT runs the others");
            }
            if (skipped > 0) {
                err.println("batch: " + skipped + " plans skipped: " + resumeFrom + " already has their lines");
            }
            report.summary().lines().forEach(line -> err.println(TerminalText.safe(line)));
            err.flush();
            if (stop.requested()) {
                return ExitCodes.INTERRUPTED;
            }
            return report.allSucceeded() && resumed.notSucceeded() == 0 ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
        } finally {
            written.countDown();
            if (!stop.requested()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(onSignal);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs: it exits 130 once the lines are written
                }
            }
        }
    }

    /** Where the lines go: stdout, --out (replaced) or --resume-from (appended). */
    private Writer sink() throws IOException {
        if (resumeFrom != null) {
            return Files.newBufferedWriter(resumeFrom, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        if (out != null) {
            if (Files.isDirectory(out)) {
                throw new IOException("cannot write " + out + ": it is a directory");
            }
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return Files.newBufferedWriter(out, StandardCharsets.UTF_8);
        }
        return new NonClosing(spec.commandLine().getOut());
    }

    /** Refuses bad option values (exit 2) and returns the --var inputs. */
    private Map<String, JsonNode> checkUsage() {
        CommandLine commandLine = spec.commandLine();
        if (concurrency != null && concurrency < 1) {
            throw new CommandLine.ParameterException(commandLine, "--concurrency must be at least 1");
        }
        if (resumeFrom != null && out != null && !out.toAbsolutePath().normalize().equals(resumeFrom.toAbsolutePath().normalize())) {
            throw new CommandLine.ParameterException(commandLine, "--resume-from appends to its file: give --out the same file or leave it out");
        }
        if (replayTiming && mode.replayDir == null) {
            throw new CommandLine.ParameterException(commandLine, "--replay-timing needs --replay-dir");
        }
        if (mode.replayDir != null && !Files.isDirectory(mode.replayDir)) {
            throw new CommandLine.ParameterException(commandLine, "--replay-dir " + mode.replayDir + ": not a directory");
        }
        return vmOptions.inputs(commandLine);
    }

    private Batch batch(PlanVm vm, Map<String, JsonNode> inputs, PlanFileRunner runner) {
        Batch.Builder builder = Batch.builder(vm).inputs(inputs).runner(runner)
                .concurrency(concurrency != null ? concurrency : Batch.defaultConcurrency());
        if (mode.replayDir != null) {
            builder.replay(mode.replayDir, replayTiming);
        } else if (mode.dryRun) {
            builder.dryRun(dryRunConditions);
        }
        return builder.build();
    }

    /** stdout for the lines, left open when the lines are done. */
    private static final class NonClosing extends FilterWriter {
        NonClosing(Writer out) {
            super(out);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
