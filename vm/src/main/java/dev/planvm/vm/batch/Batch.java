package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.Threads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs many plan files concurrently, each in its own run of one {@link PlanVm} (runs share no
 * state), and returns how each fared in the order the files were given, whatever order they
 * finish in. Nothing a plan does stops the others — running out of memory or stack included: that
 * plan fails with a sentence and the rest run — and every plan gets a {@link PlanOutcome}.
 *
 * <pre>{@code
 * PlanVm vm = PlanVm.builder().tools(myTools).tracing(false).build();
 * Batch batch = Batch.builder(vm).concurrency(16).replay(Path.of("cassettes"), false).build();
 * List<PlanOutcome> outcomes = batch.run(files, (index, outcome) -> System.err.print("."));
 * }</pre>
 *
 * At most {@code concurrency} plans are in flight at once, on virtual threads when the JVM has
 * them (21+), else on as many daemon platform threads. The outcomes returned keep no trace, so a
 * batch of thousands of plans stays small in memory; a {@link BatchListener} sees each trace.
 * A {@code Batch} is immutable and can {@link #run} any number of times, from any thread.
 */
public final class Batch {

    private static final Logger LOG = LoggerFactory.getLogger(Batch.class);
    /** How often a waiting batch looks at its stop request. */
    private static final long STOP_POLL_MS = 100;
    /** How long interrupted plans get to end before the batch returns without them. */
    private static final long CANCEL_WAIT_MS = 5_000;

    private final BatchPlanRunner runner;
    private final int concurrency;

    private Batch(Builder b) {
        RunMode mode = b.dryRun ? RunMode.dryRun(b.dryRunConditions) : RunMode.live();
        this.runner = new BatchPlanRunner(
                b.runner != null ? b.runner : new PlanFileRunner(b.vm), mode, b.replayDir, b.replayTiming, b.inputs);
        this.concurrency = b.concurrency;
    }

    public static Builder builder(PlanVm vm) {
        return new Builder(vm);
    }

    /** The default {@link #concurrency()}. */
    public static final int DEFAULT_CONCURRENCY = 16;

    /**
     * 16 plans in flight: plans mostly wait on tools and LLMs, and with LLM calls of 1 to 3 s that is
     * some 300 to 1,000 requests a minute, within a typical provider's paid-tier rate limits (a 429 is
     * retried after its {@code Retry-After}); raise it for faster providers or local tools.
     */
    public static int defaultConcurrency() {
        return DEFAULT_CONCURRENCY;
    }

    /** The most plans in flight at once. */
    public int concurrency() {
        return concurrency;
    }

    /** {@link #run(List, BatchListener)} with no listener. */
    public List<PlanOutcome> run(List<Path> plans) throws InterruptedException {
        return run(plans, BatchListener.NONE);
    }

    /**
     * Runs every plan and waits for all of them.
     *
     * @param plans    plan files (JSON)
     * @param listener told as each plan finishes, from the thread that ran it
     * @return one outcome per plan, in the order of {@code plans}, without traces
     * @throws InterruptedException when interrupted while waiting; plans still running are
     *                              interrupted and nothing is returned
     */
    public List<PlanOutcome> run(List<Path> plans, BatchListener listener) throws InterruptedException {
        return run(plans, listener, new Stop());
    }

    /**
     * Runs the plans until they are all done or {@code stop} is requested: then no plan starts any
     * more, plans in flight get the stop's grace period to finish, and those still running after it
     * are interrupted (their outcomes are left out, as if they had not run).
     *
     * @return one entry per plan, in the order of {@code plans}: its outcome (without trace), or
     *         {@code null} for a plan that did not run to its end because the batch was stopped
     * @throws InterruptedException when interrupted while waiting; plans still running are
     *                              interrupted and nothing is returned
     */
    public List<PlanOutcome> run(List<Path> plans, BatchListener listener, Stop stop) throws InterruptedException {
        List<Path> files = List.copyOf(plans);
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(stop, "stop");
        PlanOutcome[] outcomes = new PlanOutcome[files.size()];
        Semaphore slots = new Semaphore(concurrency);
        AtomicReference<Error> fatal = new AtomicReference<>();
        AtomicBoolean cancelling = new AtomicBoolean();
        ExecutorService executor = Threads.bounded("planvm-batch", concurrency);
        try {
            for (int i = 0; i < files.size() && fatal.get() == null; i++) {
                if (!acquireUnlessStopped(slots, stop)) {
                    break;
                }
                int index = i;
                executor.execute(() -> {
                    try {
                        PlanOutcome outcome = runOne(index, files.get(index), listener, cancelling);
                        outcomes[index] = outcome;
                    } catch (Error e) {
                        fatal.compareAndSet(null, e);
                    } finally {
                        slots.release();
                    }
                });
            }
            awaitAll(slots, stop, cancelling, executor);
        } finally {
            executor.shutdownNow();
        }
        if (fatal.get() != null) {
            throw fatal.get();
        }
        return Collections.unmodifiableList(Arrays.asList(outcomes));
    }

    /** Takes a slot, or returns false (taking none) once a stop is requested. */
    private static boolean acquireUnlessStopped(Semaphore slots, Stop stop) throws InterruptedException {
        while (!stop.requested()) {
            if (slots.tryAcquire(STOP_POLL_MS, TimeUnit.MILLISECONDS)) {
                if (!stop.requested()) {
                    return true;
                }
                slots.release();
            }
        }
        return false;
    }

    /** Waits until every slot is back; once a stop is requested, for its grace period, then interrupts what still runs. */
    private void awaitAll(Semaphore slots, Stop stop, AtomicBoolean cancelling, ExecutorService executor)
            throws InterruptedException {
        while (!slots.tryAcquire(concurrency, STOP_POLL_MS, TimeUnit.MILLISECONDS)) {
            if (stop.requested()) {
                if (!slots.tryAcquire(concurrency, stop.grace().toMillis(), TimeUnit.MILLISECONDS)) {
                    cancelling.set(true);
                    executor.shutdownNow();
                    slots.tryAcquire(concurrency, CANCEL_WAIT_MS, TimeUnit.MILLISECONDS);
                }
                return;
            }
        }
    }

    /**
     * A request to stop a running batch ({@code planvm batch} on Ctrl-C or SIGTERM): no plan starts
     * after it; plans in flight get {@link #grace()} to finish, then are interrupted. Thread-safe.
     */
    public static final class Stop {
        private volatile boolean requested;
        private volatile Duration grace = Duration.ofSeconds(10);

        /** Asks the batch to stop, giving the plans in flight {@code grace} to finish. */
        public void request(Duration grace) {
            this.grace = Objects.requireNonNull(grace, "grace");
            this.requested = true;
        }

        public boolean requested() {
            return requested;
        }

        public Duration grace() {
            return grace;
        }
    }

    private PlanOutcome runOne(int index, Path plan, BatchListener listener, AtomicBoolean cancelling) {
        long start = System.nanoTime();
        PlanOutcome outcome;
        try {
            outcome = runner.run(plan);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            LOG.debug("{}: unexpected failure", plan, e);
            String error = e instanceof OutOfMemoryError
                    ? "the plan ran out of memory (" + e.getMessage() + ")"
                    : e instanceof StackOverflowError ? "the plan overflowed the stack" : "unexpected failure: " + e;
            outcome = new PlanOutcome(
                    plan, RunStatus.FAILED, null, error, (System.nanoTime() - start) / 1_000_000, 0, List.of(), null);
        }
        if (cancelling.get()) {
            return null; // cut short by a stop: as if it had not run
        }
        try {
            listener.planFinished(index, outcome);
        } catch (RuntimeException e) {
            LOG.warn("batch listener failed on {}: {}; ignored", plan, e.toString());
            LOG.debug("batch listener failure", e);
        }
        return outcome.trace() == null ? outcome : outcome.withoutTrace();
    }

    /** Configures a {@link Batch}: live by default; {@link #replay} and {@link #dryRun} exclude each other. */
    public static final class Builder {
        private final PlanVm vm;
        private int concurrency = defaultConcurrency();
        private Map<String, JsonNode> inputs = Map.of();
        private Path replayDir;
        private boolean replayTiming;
        private boolean dryRun;
        private boolean dryRunConditions;
        private PlanFileRunner runner;

        private Builder(PlanVm vm) {
            this.vm = Objects.requireNonNull(vm, "vm");
        }

        /** The most plans in flight at once (default {@link #defaultConcurrency()}). */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1");
            }
            this.concurrency = concurrency;
            return this;
        }

        /** Variables set before the first instruction of every plan. */
        public Builder inputs(Map<String, JsonNode> inputs) {
            this.inputs = Map.copyOf(inputs);
            return this;
        }

        /**
         * Replays plan {@code X.json} from {@code dir/X.cassette.json}. A plan without a cassette
         * runs when it calls nothing and is {@link RunStatus#REJECTED} when it calls a
         * tool or has a {@code condition_prompt}; nothing real is ever called.
         *
         * @param timing wait each interaction's recorded duration
         */
        public Builder replay(Path dir, boolean timing) {
            this.replayDir = Objects.requireNonNull(dir, "dir");
            this.replayTiming = timing;
            return this;
        }

        /**
         * How each plan file is read and run (default: {@code new PlanFileRunner(vm)}, StackVM JSON
         * only): give one that reads every dialect, or sets each run's clock. It must run on this VM.
         */
        public Builder runner(PlanFileRunner value) {
            this.runner = Objects.requireNonNull(value, "runner");
            return this;
        }

        /** Calls nothing: tools answer placeholders, LLM conditions answer {@code conditionsAnswer}. */
        public Builder dryRun(boolean conditionsAnswer) {
            this.dryRun = true;
            this.dryRunConditions = conditionsAnswer;
            return this;
        }

        public Batch build() {
            if (dryRun && replayDir != null) {
                throw new IllegalStateException("replay and dry run exclude each other");
            }
            return new Batch(this);
        }
    }
}
