package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import dev.planvm.vm.batch.Batch;
import dev.planvm.vm.batch.BatchListener;
import dev.planvm.vm.batch.BatchReport;
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
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One {@code planvm batch} on this machine: the plans run, their lines stream to the output as they
 * finish (in input order), the summary goes to stderr; Ctrl-C or SIGTERM stops the batch (no plan
 * starts, those in flight get {@value #STOP_GRACE_SECONDS} s to finish), writes what finished and the
 * summary, and exits 130.
 *
 * @param progress whether to draw the progress bar (when stderr is a terminal)
 * @param verbose  whether to print each plan that did not succeed, with its error
 */
record StreamedBatch(PrintWriter err, boolean progress, boolean verbose) {

    /** Seconds the plans in flight get to finish after Ctrl-C or SIGTERM. */
    static final int STOP_GRACE_SECONDS = 10;

    /**
     * Runs {@code toRun} and returns the exit code.
     *
     * @param skipped    how many plans {@code resumed} already has lines for (not run again)
     * @param resumeFrom the file the batch resumes, or {@code null}
     */
    int run(Batch batch, List<String> toRun, BatchLines lines, BatchResume resumed, int skipped, Path resumeFrom)
            throws IOException {
        Batch.Stop stop = new Batch.Stop();
        CountDownLatch written = new CountDownLatch(1);
        Thread onSignal = new Thread(
                () -> {
                    stop.request(Duration.ofSeconds(STOP_GRACE_SECONDS));
                    try {
                        written.await(STOP_GRACE_SECONDS + 10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    Runtime.getRuntime().halt(ExitCodes.INTERRUPTED);
                },
                "planvm-batch-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);
        long start = System.nanoTime();
        try {
            List<PlanOutcome> outcomes;
            try (BatchProgress bar = progress ? BatchProgress.forTerminal(toRun.size()) : BatchProgress.silent()) {
                outcomes = batch.run(toRun.stream().map(Path::of).toList(), BatchListener.both(lines, bar), stop);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop.request(Duration.ZERO);
                outcomes = List.of();
            }
            lines.flushFinished();
            lines.throwIfFailed();
            List<PlanOutcome> finished =
                    outcomes.stream().filter(Objects::nonNull).toList();
            BatchReport report = summarize(
                    finished,
                    toRun.size(),
                    stop.requested(),
                    skipped,
                    resumeFrom,
                    Duration.ofNanos(System.nanoTime() - start));
            if (stop.requested()) {
                return ExitCodes.INTERRUPTED;
            }
            return report.allClean() && resumed.notSucceeded() == 0 ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
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

    private BatchReport summarize(
            List<PlanOutcome> finished, int planned, boolean interrupted, int skipped, Path resumeFrom, Duration wall) {
        BatchReport report = new BatchReport(finished, wall);
        if (verbose) {
            finished.stream()
                    .filter(o ->
                            !o.succeeded() && o.error() != null) // completed_with_failures: its steps are on stderr
                    .forEach(o -> err.println(
                            TerminalText.safe(o.file() + ": " + o.status().label() + ": " + o.error())));
        }
        if (interrupted) {
            err.println("batch: interrupted: " + finished.size() + " of " + planned + " plans finished; planvm batch "
                    + "--resume-from OUT runs the others");
        }
        if (skipped > 0) {
            err.println("batch: " + skipped + " plans skipped: " + resumeFrom + " already has their lines");
        }
        report.summary().lines().forEach(line -> err.println(TerminalText.safe(line)));
        err.flush();
        return report;
    }

    /** Where the lines go: {@code resumeFrom} (appended), {@code out} (replaced, written as it grows) or stdout. */
    static Writer sink(Path out, Path resumeFrom, Writer stdout) throws IOException {
        if (resumeFrom != null) {
            return Files.newBufferedWriter(
                    resumeFrom, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
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
        return new NonClosing(stdout);
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
