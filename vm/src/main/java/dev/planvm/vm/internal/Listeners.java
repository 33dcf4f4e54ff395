package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.call.GuardedListeners;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The one place a run's listeners are told anything: the interpreter tells it the run and step events, the
 * call chain the call events (on whichever thread the call runs), plan-tool calls the child runs. It tells
 * each listener in order through {@link GuardedListeners}: a listener that throws never breaks the run or
 * the call; its first failure is logged once, with the listener's class and the event, and its later
 * failures in this run are not logged (it is still told every event). Thread-safe; one per run.
 */
public final class Listeners implements RunListener {

    /** No listener: nothing is told, nothing is recorded for listeners. */
    public static final Listeners NONE = new Listeners(List.of());

    private final GuardedListeners<RunListener> listeners;

    /** @param listeners told in this order */
    public Listeners(List<? extends RunListener> listeners) {
        this.listeners = new GuardedListeners<>(listeners);
    }

    /** Whether nobody listens. */
    public boolean isEmpty() {
        return listeners.isEmpty();
    }

    public int size() {
        return listeners.size();
    }

    @Override
    public void runStarted(Plan plan, Map<String, JsonNode> inputs) {
        tell("runStarted", l -> l.runStarted(plan, inputs));
    }

    @Override
    public void stepStarted(Instruction instruction) {
        tell("stepStarted", l -> l.stepStarted(instruction));
    }

    @Override
    public void stepFinished(StepRecord step) {
        tell("stepFinished", l -> l.stepFinished(step));
    }

    @Override
    public void runFinished(RunResult result) {
        tell("runFinished", l -> l.runFinished(result));
    }

    @Override
    public void childStarted(int seqNo, String tool, String childRunId) {
        tell("childStarted", l -> l.childStarted(seqNo, tool, childRunId));
    }

    @Override
    public void childFinished(int seqNo, String tool, String childRunId, RunStatus status) {
        tell("childFinished", l -> l.childFinished(seqNo, tool, childRunId, status));
    }

    @Override
    public void callStarted(Call call) {
        tell("callStarted", l -> l.callStarted(call));
    }

    @Override
    public void callFinished(Call call, JsonNode output, long durationNanos) {
        tell("callFinished", l -> l.callFinished(call, output, durationNanos));
    }

    @Override
    public void callFailed(Call call, ToolException failure, long durationNanos) {
        tell("callFailed", l -> l.callFailed(call, failure, durationNanos));
    }

    @Override
    public void callAbandoned(Call call, Throwable cause) {
        tell("callAbandoned", l -> l.callAbandoned(call, cause));
    }

    @Override
    public void attemptFailed(Call call, FailedAttempt attempt) {
        tell("attemptFailed", l -> l.attemptFailed(call, attempt));
    }

    @Override
    public void tokens(Call call, TokenCount tokens) {
        tell("tokens", l -> l.tokens(call, tokens));
    }

    @Override
    public void streamStarted(Call call) {
        tell("streamStarted", l -> l.streamStarted(call));
    }

    @Override
    public void chunk(Call call, String text) {
        tell("chunk", l -> l.chunk(call, text));
    }

    @Override
    public void slotTaken(Call call, String limiter, int limit, long waitedNanos) {
        tell("slotTaken", l -> l.slotTaken(call, limiter, limit, waitedNanos));
    }

    @Override
    public void limitChanged(Call call, String limiter, int limit, String cause) {
        tell("limitChanged", l -> l.limitChanged(call, limiter, limit, cause));
    }

    private void tell(String event, Consumer<RunListener> told) {
        listeners.tell(event, told);
    }

    @Override
    public String toString() {
        return "Listeners" + listeners;
    }
}
