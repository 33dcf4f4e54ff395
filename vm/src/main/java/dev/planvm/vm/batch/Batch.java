package dev.planvm.vm.batch;

import dev.planvm.vm.run.RunStatus;
import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.internal.Threads;
import dev.planvm.vm.RunMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
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

    private final BatchPlanRunner runner;
    private final int concurrency;

    private Batch(Builder b) {
        RunMode mode = b.dryRun ? RunMode.dryRun(b.dryRunConditions) : RunMode.live();
        this.runner = new BatchPlanRunner(b.runner != null ? b.runner : new PlanFileRunner(b.vm), mode, b.replayDir,
                b.replayTiming, b.inputs);
        this.concurrency = b.concurrency;
    }

    public static Builder builder(PlanVm vm) {
        return new Builder(vm);
    }

    /** Twice the available processors, at least 4: plans mostly wait on tools and LLMs. */
    public static int defaultConcurrency() {
        return Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
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
        List<Path> files = List.copyOf(plans);
        Objects.requireNonNull(listener, "listener");
        PlanOutcome[] outcomes = new PlanOutcome[files.size()];
        Semaphore slots = new Semaphore(concurrency);
        AtomicReference<Error> fatal = new AtomicReference<>();
        ExecutorService executor = Threads.bounded("planvm-batch", concurrency);
        try {
            for (int i = 0; i < files.size() && fatal.get() == null; i++) {
                slots.acquire();
                int index = i;
                executor.execute(() -> {
                    try {
                        outcomes[index] = runOne(index, files.get(index), listener);
                    } catch (Error e) {
                        fatal.compareAndSet(null, e);
                    } finally {
                        slots.release();
                    }
                });
            }
            slots.acquire(concurrency); // every slot is back: every plan has finished
        } finally {
            executor.shutdownNow();
        }
        if (fatal.get() != null) {
            throw fatal.get();
        }
        return List.of(outcomes);
    }

    private PlanOutcome runOne(int index, Path plan, BatchListener listener) {
        long start = System.nanoTime();
        PlanOutcome outcome;
        try {
            outcome = runner.run(plan);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
            LOG.debug("{}: unexpected failure", plan, e);
            String error = e instanceof OutOfMemoryError ? "the plan ran out of memory (" + e.getMessage() + ")"
                    : e instanceof StackOverflowError ? "the plan overflowed the stack" : "unexpected failure: " + e;
            outcome = new PlanOutcome(plan, RunStatus.FAILED, null, error, (System.nanoTime() - start) / 1_000_000, 0,
                    List.of(), null);
        }
        try {
            listener.planFinished(index, outcome);
        } catch (RuntimeException e) {
            LOG.warn("batch listener failed on {}: {}; ignored", plan, e.toString());
            LOG.debug("batch listener failure", e);
        }
        return outcome.trace() == null ? outcome : new PlanOutcome(outcome.file(), outcome.status(),
                outcome.finalAnswer(), outcome.error(), outcome.durationMs(), outcome.steps(), outcome.diagnostics(), null);
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
