package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.IdyllDocuments;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns one session of a run into {@link RunEvent}s in its {@link EventLog}: a run and a call listener
 * (calls may report from other threads, so every method holds the lock). Secrets are redacted.
 */
final class RunEvents implements RunListener {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** A final answer larger than this (as JSON) is left out of {@code run_finished}. */
    private static final int MAX_RESULT_CHARS = 64 * 1024;

    private EventLog log;
    private final int session;
    private final Redactor redactor;
    private final boolean resumed;
    private final Runnable started;
    private String runId;
    /** The index the current step commits with: committed steps + 1. */
    private long step;

    private int n;
    /** The plan as it runs, and its steps' times by seq_no: an Idyll document's report is completed with them. */
    private Plan plan;

    private final Map<Integer, Double> stepMillis = new HashMap<>();
    private double totalMillis;

    /**
     * Events of session {@code session}; {@link #stored} names the run and its log before it starts;
     * {@code started} is told when the session is under way (the run claimed, its plan accepted).
     */
    RunEvents(int session, boolean resumed, Redactor redactor, Runnable started) {
        this.started = started;
        this.session = session;
        this.resumed = resumed;
        this.redactor = redactor;
    }

    /** The run is stored as {@code id} and has {@code stepsBefore} committed steps; its session starts, logged in {@code events}. */
    synchronized void stored(String id, int stepsBefore, EventLog events) {
        this.runId = id;
        this.log = events;
        this.step = stepsBefore + 1L;
    }

    @Override
    public synchronized void runStarted(Plan plan, Map<String, JsonNode> inputs) {
        log.open();
        if (this.plan == null) {
            this.plan = plan;
        }
        ObjectNode data = JSON.objectNode()
                .put("run", runId)
                .put("session", session)
                .put("steps_before", step - 1)
                .put("plan", plan.source());
        log.append(RunEvent.id(step, session, 0), resumed ? "run_resumed" : "run_started", data);
        started.run();
    }

    @Override
    public synchronized void stepStarted(Instruction instruction) {
        event(
                "step_started",
                JSON.objectNode()
                        .put("seq_no", instruction.seqNo())
                        .put("type", instruction.type())
                        .put("step", step));
    }

    @Override
    public synchronized void stepFinished(StepRecord record) {
        double millis = record.durationNanos() / 1e6;
        stepMillis.merge(record.seqNo(), millis, Double::sum);
        totalMillis += millis;
        if (record.failed() && !record.recovered()) {
            event(
                    "step_failed",
                    JSON.objectNode()
                            .put("seq_no", record.seqNo())
                            .put("type", record.type())
                            .put("step", step)
                            .put("error", record.error()));
            return;
        }
        log.append(
                RunEvent.id(step, session, RunEvent.LAST),
                "step_committed",
                committed(record.seqNo(), record.type(), step));
        step++;
        n = 0;
    }

    /** The data of {@code step_committed}, live or rebuilt from the store. */
    static ObjectNode committed(int seqNo, String type, long step) {
        return JSON.objectNode().put("seq_no", seqNo).put("type", type).put("step", step);
    }

    @Override
    public synchronized void runFinished(RunResult result) {
        ObjectNode data = JSON.objectNode().put("status", result.status().label());
        JsonNode answer = redactor.redact(documentReport(result.finalAnswer()));
        if (answer.toString().length() <= MAX_RESULT_CHARS) {
            data.set("result", answer);
        } else {
            data.putNull("result").put("result_left_out", true);
        }
        data.put("error", result.error() == null ? null : result.error().describe());
        if (result.pending() != null) {
            ObjectNode pending =
                    data.putObject("pending").put("seq_no", result.pending().seqNo());
            if (result.pending().isElement()) {
                pending.put("element", result.pending().element());
            }
            pending.put("tool", result.pending().tool())
                    .set("params", result.pending().params());
        }
        data.put("committed_steps", step - 1);
        log.append(RunEvent.id(step, session, RunEvent.LAST), "run_finished", (ObjectNode) redactor.redact(data));
        log.close();
    }

    /**
     * An Idyll document's report with each block's time (the compiled plan writes 0), as {@code planvm run} prints
     * it; any other answer as it is. A resumed session knows only its own steps, so its report is left for the
     * stored run to complete ({@code GET /v1/runs/{id}} has it whole).
     */
    private JsonNode documentReport(JsonNode answer) {
        if (resumed
                || plan == null
                || answer == null
                || !answer.path("nodes").isArray()
                || !answer.path("metadata").has("nodesExecuted")) {
            return answer;
        }
        return IdyllDocuments.withDurations(answer, plan, stepMillis, totalMillis);
    }

    @Override
    public synchronized void callStarted(Call call) {
        event("call_started", describe(call));
    }

    @Override
    public synchronized void callFinished(Call call, JsonNode output, long durationNanos) {
        event("call_answered", describe(call).put("duration_ms", durationNanos / 1_000_000.0));
    }

    @Override
    public synchronized void callFailed(Call call, ToolException failure, long durationNanos) {
        event(
                "call_failed",
                describe(call)
                        .put("error", redactor.redact(String.valueOf(failure.getMessage())))
                        .put("duration_ms", durationNanos / 1_000_000.0));
    }

    @Override
    public synchronized void attemptFailed(Call call, FailedAttempt attempt) {
        ObjectNode data = describe(call)
                .put("attempt", attempt.number())
                .put("error", redactor.redact(String.valueOf(attempt.failure().getMessage())));
        if (attempt.nextWait() != null) {
            data.put("wait_ms", attempt.nextWait().toMillis());
        }
        event("call_retried", data);
    }

    /** A plan-tool call of the current step started a child run: {@code child_started}. */
    @Override
    public synchronized void childStarted(int seqNo, String tool, String childRunId) {
        event(
                "child_started",
                JSON.objectNode().put("seq_no", seqNo).put("tool", tool).put("child_run", childRunId));
    }

    /** That child run ended: {@code child_finished} with its status. */
    @Override
    public synchronized void childFinished(int seqNo, String tool, String childRunId, RunStatus status) {
        event(
                "child_finished",
                JSON.objectNode()
                        .put("seq_no", seqNo)
                        .put("tool", tool)
                        .put("child_run", childRunId)
                        .put("status", status.label()));
    }

    private static ObjectNode describe(Call call) {
        ObjectNode data = JSON.objectNode().put("seq_no", call.context().seqNo());
        if (call instanceof Call.ToolCall tool) {
            data.put("kind", "tool").put("tool", tool.tool());
        } else {
            data.put("kind", "condition");
        }
        return data;
    }

    /** An event of the current step; beyond 998 of them the rest are left out. */
    private void event(String type, ObjectNode data) {
        if (n >= RunEvent.LAST - 1) {
            return;
        }
        n++;
        log.append(RunEvent.id(step, session, n), type, data);
    }
}
