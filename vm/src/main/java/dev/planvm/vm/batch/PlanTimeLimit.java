package dev.planvm.vm.batch;

import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.Threads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The time limit of one plan test: the plan runs on a thread of its own, and when its time is up the test stops
 * waiting for it. A plan test must end whatever the plan does — a 30-day {@code sleep} with no cassette, a tool
 * that never answers — so the build that runs it never hangs. The run is asked to stop (cancelled at its next
 * commit point, its thread interrupted: a {@code sleep} ends at once) and given a few seconds to do so; a run that
 * ignores both is left behind on its daemon thread, and the test fails all the same.
 */
final class PlanTimeLimit {

    /** How long a run that was asked to stop is waited for, so that it rarely outlives its test. */
    private static final Duration GRACE = Duration.ofSeconds(5);

    private final Duration limit;

    PlanTimeLimit(Duration limit) {
        if (limit == null || limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("a plan test's time limit must be positive, not " + limit);
        }
        this.limit = limit;
    }

    Duration limit() {
        return limit;
    }

    /**
     * What {@code work} answers when it runs {@code plan} on {@code runner} (watched: stopped when the time is up,
     * heard to say where it was) within the limit.
     *
     * @throws RegressionRun.TimedOut when it did not finish in time, saying where the run was
     */
    PlanOutcome run(Path plan, PlanFileRunner runner, Function<PlanFileRunner, PlanOutcome> work) {
        RunControl control = new RunControl();
        Where where = new Where();
        FutureTask<PlanOutcome> task = new FutureTask<>(() -> work.apply(runner.watched(control, where)));
        Thread thread = Threads.daemon("planvm-plan-test").newThread(task);
        thread.start();
        try {
            return task.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException late) {
            stop(control, thread, task);
            throw new RegressionRun.TimedOut(plan + ": " + message(where));
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            stop(control, thread, task);
            throw new RegressionRun.TimedOut(plan + ": the test was interrupted while the plan ran");
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failed.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(failed.getCause());
        }
    }

    private static void stop(RunControl control, Thread thread, FutureTask<PlanOutcome> task) {
        control.cancel("the plan test's time limit is up");
        thread.interrupt();
        try {
            task.get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException ignored) {
            // it stopped failing, or it ignores being stopped: the test fails either way
        }
    }

    /** {@code the plan did not finish within 60 s, ...: it was at seq_no 0, calling sleep}. */
    private String message(Where where) {
        String at = where.seqNo < 0
                ? "it had not started its first step"
                : "it was at seq_no " + where.seqNo
                        + (where.tool == null ? " (" + where.type + ")" : ", calling " + where.tool);
        return "the plan did not finish within " + seconds(limit) + ", the time limit of a plan test (planvm test"
                + " --plan-timeout): " + at;
    }

    private static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0
                ? millis / 1000 + " s"
                : String.format(Locale.ROOT, "%.3f s", millis / 1000.0).replaceAll("0+ s$", " s");
    }

    /** The step the run is at (its thread writes, the test's thread reads once the time is up). */
    private static final class Where implements RunListener {
        private volatile int seqNo = -1;
        private volatile String type;
        private volatile String tool;

        @Override
        public void stepStarted(Instruction instruction) {
            tool = instruction instanceof Calling calling ? calling.tool() : null;
            type = instruction.type();
            seqNo = instruction.seqNo();
        }
    }
}
