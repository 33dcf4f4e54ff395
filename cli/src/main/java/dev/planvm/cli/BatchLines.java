package dev.planvm.cli;

import dev.planvm.vm.batch.BatchListener;
import dev.planvm.vm.batch.BatchReport;
import dev.planvm.vm.batch.PlanOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.function.UnaryOperator;

/**
 * A batch's JSON lines, written as plans finish and in input order: a plan's line is written as
 * soon as every plan before it has its line (a reorder buffer holds the ones that finished early).
 * Each line is written whole and flushed, so {@code tail -f} follows the batch and an interrupted
 * batch leaves the line of every plan before the first unfinished one; {@link #flushFinished()}
 * then writes the rest that finished, in input order. Thread-safe.
 */
final class BatchLines implements BatchListener {

    private final Writer sink;
    private final UnaryOperator<PlanOutcome> redact;
    private final PlanOutcome[] buffered;
    private int next;
    private IOException failure;

    /**
     * @param sink   where the lines go (stdout, or the output file)
     * @param plans  how many plans the batch runs (the listener's indexes go up to it)
     * @param redact what a line shows of an outcome (secrets redacted unless revealed)
     */
    BatchLines(Writer sink, int plans, UnaryOperator<PlanOutcome> redact) {
        this.sink = sink;
        this.redact = redact;
        this.buffered = new PlanOutcome[plans];
    }

    @Override
    public synchronized void planFinished(int index, PlanOutcome outcome) {
        buffered[index] = redact.apply(outcome);
        while (next < buffered.length && buffered[next] != null) {
            write(buffered[next]);
            buffered[next++] = null;
        }
    }

    /** Writes what finished after a plan that did not (a stopped batch), in input order. */
    synchronized void flushFinished() {
        for (; next < buffered.length; next++) {
            if (buffered[next] != null) {
                write(buffered[next]);
                buffered[next] = null;
            }
        }
    }

    /** The first failure to write a line, if any (the lines after it were not written). */
    synchronized void throwIfFailed() throws IOException {
        if (failure != null) {
            throw failure;
        }
    }

    private void write(PlanOutcome outcome) {
        if (failure != null) {
            return;
        }
        try {
            sink.write(BatchReport.jsonLine(outcome) + "\n");
            sink.flush();
        } catch (IOException e) {
            failure = e;
        } catch (UncheckedIOException e) {
            failure = e.getCause();
        }
    }
}
