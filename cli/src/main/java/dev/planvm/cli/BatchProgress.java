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
 * A progress bar on the process's stderr while a batch runs, drawn only when stderr is a
 * terminal: redrawn lines ({@code \r}) would litter a log or a pipe. Otherwise it draws nothing.
 * Close it when the batch is done.
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
     * Whether the JVM has a terminal (a {@link Console}; on JDK 22+ one that {@code isTerminal()})
     * and, where {@code /proc} tells, file descriptor 2 is a terminal too ({@code 2>log} is not).
     */
    static boolean stderrIsTerminal() {
        Console console = System.console();
        if (console == null || !isTerminal(console)) {
            return false;
        }
        Path stderr = Path.of("/proc/self/fd/2");
        if (!Files.isDirectory(stderr.getParent())) {
            return true;
        }
        try {
            String target = Files.readSymbolicLink(stderr).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException unknown) {
            return false;
        }
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
            return MethodHandles.publicLookup().findVirtual(Console.class, "isTerminal", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException notThere) {
            return null;
        }
    }
}
