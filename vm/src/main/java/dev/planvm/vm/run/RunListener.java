package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import java.util.Map;

/**
 * Observes a run (the trace is built by one). Every method has a no-op default. A listener that
 * throws is logged and ignored: observation never breaks a run. Called on the run's thread.
 */
public interface RunListener {

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
