package dev.planvm.cli;

import dev.planvm.vm.batch.BatchListener;
import dev.planvm.vm.batch.PlanOutcome;
import java.io.Console;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on the process's stderr while a batch runs — plans done, plans/s, the time left and
 * how many did not succeed so far — drawn only when stderr is a terminal (whatever stdout is):
 * redrawn lines ({@code \r}) would litter a log or a pipe. Otherwise it draws nothing. Close it when
 * the batch is done.
 */
final class BatchProgress implements BatchListener, AutoCloseable {

    private static final MethodHandle IS_TERMINAL = lookUpIsTerminal();

    private final ProgressBar bar;
    private final AtomicInteger notSucceeded = new AtomicInteger();

    private BatchProgress(ProgressBar bar) {
        this.bar = bar;
    }

    /** A bar counting up to {@code total} plans when stderr is a terminal, else {@link #silent()}. */
    public static BatchProgress forTerminal(int total) {
        if (!stderrIsTerminal()) {
            return silent();
        }
        return new BatchProgress(new ProgressBarBuilder()
                .setTaskName("batch")
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(200)
                .setUnit(" plans", 1)
                .showSpeed()
                .setConsumer(new ConsoleProgressBarConsumer(System.err))
                .build());
    }

    /** Draws nothing. */
    public static BatchProgress silent() {
        return new BatchProgress(null);
    }

    /** Whether a bar is drawn. */
    public boolean shown() {
        return bar != null;
    }

    @Override
    public void planFinished(int index, PlanOutcome outcome) {
        if (bar == null) {
            return;
        }
        if (!outcome.succeeded()) {
            bar.setExtraMessage(notSucceeded.incrementAndGet() + " not succeeded");
        }
        bar.step();
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
        }
    }

    /**
     * Whether file descriptor 2 is a terminal: where {@code /proc} tells (Linux), whether it leads to a
     * tty, whatever stdout is ({@code > results.jsonl} keeps the bar); elsewhere, whether the JVM has a
     * terminal ({@link Console}; on JDK 22+ one that {@code isTerminal()}).
     */
    static boolean stderrIsTerminal() {
        Path stderr = Path.of("/proc/self/fd/2");
        if (Files.isDirectory(stderr.getParent())) {
            try {
                String target = Files.readSymbolicLink(stderr).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            } catch (IOException | UnsupportedOperationException | SecurityException unknown) {
                return false;
            }
        }
        Console console = System.console();
        return console != null && isTerminal(console);
    }

    private static boolean isTerminal(Console console) {
        if (IS_TERMINAL == null) {
            return true; // before JDK 22, System.console() is null unless attached to a terminal
        }
        try {
            return (boolean) IS_TERMINAL.invoke(console);
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle lookUpIsTerminal() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Console.class, "isTerminal", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException notThere) {
            return null;
        }
    }
}
