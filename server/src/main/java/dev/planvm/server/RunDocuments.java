package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.IdyllDocuments;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.RunSummary;
import dev.planvm.vm.durable.StoredApproval;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.durable.StoredStep;
import dev.planvm.vm.durable.WaitingCall;
import dev.planvm.vm.run.PendingCall;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Optional;

/** The JSON views of runs that both servers answer with. */
final class RunDocuments {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private RunDocuments() {}

    /** One line of a run list: {@code {"id", "state", "plan", "started", "finished", "steps", "parent_run"}}. */
    static ObjectNode summary(RunSummary run) {
        ObjectNode item = JSON.objectNode()
                .put("id", run.id())
                .put("state", run.state())
                .put("plan", run.planSource())
                .put("started", run.startedAt())
                .put("finished", run.finishedAt())
                .put("steps", run.steps());
        item.put("parent_run", run.parentRun());
        return item;
    }

    /**
     * How a session of a run ended, as {@code POST /v1/runs?wait=true} answers: {@code {"id", "state",
     * "result", "error", "pending", "steps", "duration_ms", "parent_run", "links"}}; {@code "use": true} after the
     * result when the plan ended in seed 001's {@code use}; {@code trace} when asked;
     * {@code failed_steps} ({@code [{"seq_no", "type", "tool", "kind", "message"}]}) when the run kept going past
     * failed steps.
     */
    static ObjectNode outcome(DurableRun run, boolean withTrace) {
        RunResult result = run.result();
        ObjectNode document = JSON.objectNode()
                .put("id", run.id())
                .put("state", result.status().label());
        document.set("result", result.finalAnswer());
        if (result.handsBack()) {
            document.put("use", true); // seed 001's use: the result goes back to the LLM that wrote the plan
        }
        document.put("error", result.error() == null ? null : result.error().describe());
        document.set("pending", pending(result.pending()));
        if (result.anyStepFailed()) {
            ArrayNode failed = document.putArray("failed_steps");
            result.failedSteps().forEach(step -> failed.add(step.toJson()));
        }
        document.put("steps", result.steps())
                .put("duration_ms", result.duration().toMillis())
                .put("parent_run", run.parentRun());
        if (withTrace && result.trace() != null) {
            document.set("trace", result.trace());
        }
        document.set("links", links(run.id()));
        return document;
    }

    /**
     * A stored run's result as every view shows it (JSON null when it has none): an Idyll document's report
     * with each block's time from the committed steps of all its sessions ({@link
     * IdyllDocuments#withStepDurations}); the run's answer as it is otherwise.
     */
    static JsonNode result(StoredRun run) {
        if (run.finalAnswer() == null) {
            return JSON.nullNode();
        }
        return IdyllDocuments.withStepDurations(
                run.finalAnswer(),
                run.plan(),
                run.steps().stream().map(StoredStep::trace).toList());
    }

    /**
     * {@code outcome} with the result as the stored run shows it ({@link #result(StoredRun)}), when the session
     * succeeded: a session's own result knows only its own steps.
     */
    static ObjectNode withStoredResult(ObjectNode outcome, StoredRun run) {
        if (outcome.path("state").asText().equals("succeeded") && run.finalAnswer() != null) {
            outcome.set("result", result(run));
        }
        return outcome;
    }

    /** A run just accepted and not finished: {@code {"id", "state": "running", "links"}}. */
    static ObjectNode accepted(String id) {
        ObjectNode document = JSON.objectNode().put("id", id).put("state", "running");
        document.set("links", links(id));
        return document;
    }

    /**
     * A stored run with the trace entries of its committed steps ({@code GET /v1/runs/{id}}): the shape of
     * {@code planvm show}, plus {@code state}, {@code options} (with the run's {@code clock}, which a resume
     * reuses), {@code pending} and {@code approvals}; {@code "use": true} after the result when the plan ended in
     * seed 001's {@code use}.
     */
    public static ObjectNode full(StoredRun run, String state) {
        ObjectNode document = JSON.objectNode()
                .put("id", run.id())
                .put("state", state)
                .put("status", run.status().label());
        document.putObject("plan").put("source", run.planSource()).put("digest", run.planDigest());
        ObjectNode inputs = document.putObject("inputs");
        run.inputs().forEach(inputs::set);
        document.put("mode", run.mode())
                .put("started", run.startedAt())
                .put("finished", run.finishedAt())
                .put("sessions", run.sessions());
        document.put("parent_run", run.parentRun());
        if (run.fromSeq() == null) {
            document.putNull("from_seq");
        } else {
            document.put("from_seq", run.fromSeq());
        }
        document.set("options", options(run.options()));
        document.set("result", result(run));
        if (run.handsBack()) {
            document.put("use", true); // seed 001's use: the result goes back to the LLM that wrote the plan
        }
        document.put("error", StoredEvents.error(run));
        document.set(
                "pending", run.pendingApproval().map(a -> approval(run.id(), a)).orElse(null));
        ArrayNode approvals = document.putArray("approvals");
        run.approvals().forEach(a -> approvals.add(approval(run.id(), a)));
        ArrayNode steps = document.putArray("steps");
        for (StoredStep step : run.steps()) {
            ObjectNode entry = ((ObjectNode) step.trace()).deepCopy();
            entry.put("step", step.index()).put("session", step.session()).put("committed", step.committedAt());
            steps.add(entry);
        }
        document.set("links", links(run.id()));
        return document;
    }

    /**
     * {@link #full(StoredRun, String)} with the run's lineage as a plan tool's child run: {@code parent_run_id}
     * and {@code parent_seq_no} (JSON null for a run no plan-tool call started), and {@code children}, the
     * child runs its plan-tool calls started ({@code [{"id", "seq_no", "state", "plan", "links"}]}).
     */
    public static ObjectNode full(
            StoredRun run, String state, Optional<RunStore.Caller> caller, List<RunStore.ChildRun> children) {
        ObjectNode document = full(run, state);
        document.put("parent_run_id", caller.map(RunStore.Caller::runId).orElse(null));
        if (caller.isPresent()) {
            document.put("parent_seq_no", caller.get().seqNo());
        } else {
            document.putNull("parent_seq_no");
        }
        ArrayNode list = document.putArray("children");
        for (RunStore.ChildRun child : children) {
            ObjectNode item = list.addObject()
                    .put("id", child.summary().id())
                    .put("seq_no", child.seqNo())
                    .put("state", child.summary().state())
                    .put("plan", child.summary().planSource());
            item.set("links", links(child.summary().id()));
        }
        return document;
    }

    static ObjectNode options(RunOptions options) {
        ObjectNode json = JSON.objectNode();
        options.allowTools().forEach(json.putArray("allow_tools")::add);
        options.denyTools().forEach(json.putArray("deny_tools")::add);
        options.approveTools().forEach(json.putArray("approve_tools")::add);
        if (options.maxSteps() != null) {
            json.put("max_steps", options.maxSteps());
        }
        if (options.clock() != null) {
            json.set("clock", options.clock().toJson());
        }
        if (options.keepGoing()) {
            json.put("keep_going", true);
        }
        return json;
    }

    private static JsonNode pending(PendingCall pending) {
        if (pending == null) {
            return JSON.nullNode();
        }
        ObjectNode json = JSON.objectNode().put("seq_no", pending.seqNo());
        if (pending.isElement()) {
            json.put("element", pending.element());
        }
        json.put("tool", pending.tool());
        json.set("params", pending.params());
        return json;
    }

    /**
     * A call that needed approval: {@code {"call_id", "kind": "approval", "step", "seq_no", "element" (an element of a
     * for_each step), "tool", "params", "requested", "decision", "reason", "decided"}}; the call id is {@link
     * StoredApproval#callId}.
     */
    static ObjectNode approval(String runId, StoredApproval a) {
        ObjectNode json = WaitingCall.of(runId, a).toJson();
        json.put("decision", a.decision()).put("reason", a.reason()).put("decided", a.decidedAt());
        return json;
    }

    static ObjectNode links(String id) {
        return JSON.objectNode()
                .put("self", "/v1/runs/" + id)
                .put("events", "/v1/runs/" + id + "/events")
                .put("report", "/runs/" + id)
                .put("trace", "/v1/runs/" + id + "/trace")
                .put("cassette", "/v1/runs/" + id + "/cassette")
                .put("browser", "/#/runs/" + id);
    }
}
