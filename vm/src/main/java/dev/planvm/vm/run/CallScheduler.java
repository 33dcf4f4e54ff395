package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * How a run starts calls ahead of their turn, waits for their answers, and tells the time: the
 * seam between the interpreter and what carries its calls. The default runs each early call on a
 * thread of this process and reads the system clocks. A workflow engine supplies its own: the
 * planvm-temporal module starts calls as Temporal activities and waits with Temporal promises, and
 * reads the workflow's deterministic clock, so the same interpreter runs inside a workflow.
 *
 * <p>One scheduler per run, used by the run's own thread only (the work it starts may run
 * elsewhere); a plan still arriving ({@code RunSession.startEarly}) gets one of its own, used
 * under that stream's lock. A run asks for its scheduler through the factory given to
 * {@code PlanVmBuilder.callScheduler}.
 */
public interface CallScheduler {

    /**
     * Starts {@code work} (a call through the run's call chain) beside the run. Once it is done
     * (answered, failed or cancelled), {@code tag} is handed out, once, by {@link #awaitDone()} or
     * {@link #pollDone()}.
     */
    Pending start(int tag, Supplier<JsonNode> work);

    /**
     * Waits until a started call is done whose tag was not handed out yet, and hands that tag out.
     * Tags come out in the order the calls completed.
     *
     * @throws InterruptedException when the run's thread is interrupted while it waits
     */
    int awaitDone() throws InterruptedException;

    /** The tag of a done call not handed out yet, or -1 when there is none; never waits. */
    int pollDone();

    /** Forgets the tags of done calls not handed out yet (the run left the block that started them). */
    void forgetDone();

    /** Monotonic nanoseconds for step offsets and durations; {@link System#nanoTime()} by default. */
    default long nanoTime() {
        return System.nanoTime();
    }

    /** The current instant, for the trace's {@code started} and {@code finished}; {@link Instant#now()} by default. */
    default Instant now() {
        return Instant.now();
    }

    /** A call started beside the run. */
    interface Pending {

        /** Whether the call has answered, failed or been cancelled. */
        boolean isDone();

        /** Whether the call was cancelled before it answered. */
        boolean isCancelled();

        /**
         * The answer of a call that is done. Throws what the work threw when that is a
         * {@link RuntimeException}; anything else it threw comes wrapped in a
         * {@link java.util.concurrent.CompletionException}; a cancelled call throws
         * {@link java.util.concurrent.CancellationException}. A run calls it once {@link #isDone()};
         * called before, it waits for the call to be done (a later run using a call started while
         * its plan was arriving).
         */
        JsonNode answer();

        /** Asks the call to stop; its answer will not be used. */
        void cancel();
    }
}
