package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.chain.Call;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.handlers.CallPredictor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Runs calls ahead of their turn inside a basic block, keeping sequential semantics (one per run,
 * used by the run's thread only).
 *
 * <p>The interpreter commits instructions in program order. Before each step at position
 * {@code pc}, every call of the current block after {@code pc} whose inputs are final (each
 * earlier writer in the block of a variable it reads is before {@code pc}, so has committed, and
 * no side-effecting call lies between) is started: its call is computed from the variable store
 * now, which holds exactly what the call would read at its turn. When the instruction's turn comes,
 * its handler computes its call again; if it is the same call, it gets the early answer (or
 * failure); otherwise it calls directly. Leaving the block (a jump, the end, a failure) discards
 * what is still running.
 */
final class Speculator {

    private final Plan plan;
    private final Dataflow flow;
    private final CallChain chain;
    private final ExecutorService executor;
    private final int maxInFlight;

    private int blockStart = -1;
    private int lastPc = -1;
    private int readinessCursor;
    private final List<Integer> waiting = new ArrayList<>();
    private final Map<Integer, Launched> launched = new HashMap<>();
    private int started;
    private int used;
    private int mismatched;

    private record Launched(Call call, Future<JsonNode> future) {
    }

    Speculator(Plan plan, Dataflow flow, CallChain chain, ExecutorService executor, int maxInFlight) {
        this.plan = plan;
        this.flow = flow;
        this.chain = chain;
        this.executor = executor;
        this.maxInFlight = maxInFlight;
    }

    /** Before the step at {@code pc}: enter its block if needed and start every call that is ready. */
    void beforeStep(int pc, VariableStore variables) {
        if (pc <= lastPc || flow.blockStart[pc] != blockStart) {
            enterBlock(flow.blockStart[pc]);
        }
        lastPc = pc;
        int[] ordered = flow.callsByReadiness.get(blockStart);
        while (readinessCursor < ordered.length && flow.waitsFor(ordered[readinessCursor]) < pc) {
            waiting.add(ordered[readinessCursor++]);
        }
        if (waiting.isEmpty()) {
            return;
        }
        waiting.sort(null);
        for (Iterator<Integer> it = waiting.iterator(); it.hasNext(); ) {
            int position = it.next();
            if (position <= pc) {
                it.remove(); // its turn is now or past: it runs directly
            } else if (inFlight() < maxInFlight) {
                it.remove();
                launch(position, variables);
            }
        }
    }

    /**
     * The early answer for the call of instruction {@code seqNo}, when the same call was started early;
     * {@code null} when it was not (then the caller calls directly).
     */
    JsonNode take(int seqNo, Call call) {
        Launched early = launched.remove(seqNo);
        if (early == null) {
            return null;
        }
        if (!early.call().equals(call)) {
            mismatched++;
            early.future().cancel(true);
            return null;
        }
        used++;
        try {
            return early.future().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new ToolException(call.describe() + " failed: " + cause, false, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while waiting for " + call.describe(), false, e);
        } catch (CancellationException e) {
            throw new ToolException(call.describe() + " was cancelled", false, e);
        }
    }

    /**
     * What speculation did in this run: calls started early, early answers used at their turn, and
     * early calls that turned out different from the call made at its turn (always 0 unless the
     * dependency analysis is wrong; the turn's own call is then made instead).
     */
    Stats stats() {
        return new Stats(started, used, mismatched);
    }

    /** Counts of one run, written into the trace as {@code "early_calls"}. */
    record Stats(int started, int used, int mismatched) {
    }

    /** Discards everything still running (the run ended or failed). */
    void close() {
        discard();
    }

    private void enterBlock(int start) {
        discard();
        blockStart = start;
        readinessCursor = 0;
        waiting.clear();
    }

    private void discard() {
        for (Launched early : launched.values()) {
            early.future().cancel(true);
        }
        launched.clear();
    }

    private int inFlight() {
        int running = 0;
        for (Launched early : launched.values()) {
            if (!early.future().isDone()) {
                running++;
            }
        }
        return running;
    }

    private void launch(int position, VariableStore variables) {
        Instruction instruction = plan.instructions().get(position);
        Call call;
        try {
            call = CallPredictor.predict(instruction, variables);
        } catch (RuntimeException cannotComputeYet) {
            return; // it fails (or not) at its turn, exactly as in a sequential run
        }
        started++;
        launched.put(instruction.seqNo(), new Launched(call, executor.submit(() -> chain.execute(call))));
    }
}
