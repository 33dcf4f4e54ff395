package dev.planvm.cli;

import dev.planvm.knowledge.spi.IndexListener;
import java.io.PrintWriter;
import java.util.Locale;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Shows how indexing goes: a progress bar per phase (files to embed, chunks to extract) when stderr
 * is a terminal, else one line when a phase starts and one when it ends. Close it when indexing is done.
 */
final class KbProgress implements IndexListener, AutoCloseable {

    private final PrintWriter err;
    private final boolean terminal;
    private ProgressBar bar;
    private int total;

    private KbProgress(PrintWriter err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** Bars on a terminal, else lines, on {@code err}. */
    static KbProgress on(PrintWriter err) {
        return new KbProgress(err, BatchProgress.stderrIsTerminal());
    }

    @Override
    public void started(Phase phase, int total) {
        this.total = total;
        if (phase == Phase.SCAN || total == 0) {
            return;
        }
        if (terminal) {
            bar = new ProgressBarBuilder()
                    .setTaskName(name(phase))
                    .setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(200)
                    .setConsumer(new ConsoleProgressBarConsumer(System.err))
                    .build();
        } else {
            err.println(name(phase) + ": " + total + (phase == Phase.EMBED ? " files to read" : " chunks to extract"));
            err.flush();
        }
    }

    @Override
    public void advanced(Phase phase, int done, String item) {
        if (bar != null) {
            bar.stepTo(done);
        }
    }

    @Override
    public void finished(Phase phase) {
        if (bar != null) {
            bar.close();
            bar = null;
        } else if (!terminal && phase != Phase.SCAN && total > 0) {
            err.println(name(phase) + ": done");
            err.flush();
        }
    }

    private static String name(Phase phase) {
        return phase.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
