package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.call.CallListener;
import java.util.Map;

/**
 * Observes a run: the one listener type an embedder implements (the trace, spans, the server's events and
 * metrics are each one). It hears the run and its steps on the run's thread, and every tool call and
 * condition of the run (the {@link CallListener} methods it inherits: started, finished, failed, abandoned,
 * a failed attempt, and what the call reports through its {@code CallEvents}: tokens, streamed pieces) on
 * the thread the call runs on, which is not the run's for a call started early — so a
 * listener that keeps call state must be thread-safe. Every method has a no-op default. A listener that
 * throws never breaks the run or the call: its first failure is logged once, and it is still told the
 * events that follow. Register it on {@code PlanVm.builder().listener(..)} (every run) or
 * {@code RunRequest.builder(plan).listener(..)} (one run). See "The listener model" in
 * {@code docs/architecture.md} for who tells what, on which thread, in which order.
 */
public interface RunListener extends CallListener {

    default void runStarted(Plan plan, Map<String, JsonNode> inputs) {}

    default void stepStarted(Instruction instruction) {}

    /** A step ended, successfully or not ({@link StepRecord#error()}). */
    default void stepFinished(StepRecord step) {}

    default void runFinished(RunResult result) {}

    /**
     * The call of step {@code seqNo} to plan tool {@code tool} started a child run: {@code childRunId} is
     * the child's stored id, or {@code null} when the run is not stored. Called on the call's thread
     * (which may not be the run's).
     */
    default void childStarted(int seqNo, String tool, String childRunId) {}

    /** The child run that {@link #childStarted} announced ended with {@code status}. Called on the call's thread. */
    default void childFinished(int seqNo, String tool, String childRunId, RunStatus status) {}
}
