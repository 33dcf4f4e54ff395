package dev.planvm.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.durable.StoredApproval;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.durable.StoredStep;
import dev.planvm.vm.run.RunStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The events of a stored run rebuilt from the store (after a restart, or when the live log no longer
 * holds them): each session's start, each committed step, and the end of a run that is not running —
 * with the same ids they had live. Calls and failed steps are not stored, so they are not rebuilt.
 */
final class StoredEvents {

    private StoredEvents() {}

    static List<RunEvent> of(StoredRun run) {
        List<RunEvent> events = new ArrayList<>();
        JsonNodeFactory json = JsonNodeFactory.instance;
        int session = 0;
        for (StoredStep step : run.steps()) {
            if (step.session() != session) {
                session = step.session();
                ObjectNode data = json.objectNode()
                        .put("run", run.id())
                        .put("session", session)
                        .put("steps_before", step.index() - 1)
                        .put("plan", run.planSource());
                events.add(new RunEvent(
                        RunEvent.id(step.index(), session, 0), session == 1 ? "run_started" : "run_resumed", data));
            }
            events.add(new RunEvent(
                    RunEvent.id(step.index(), step.session(), RunEvent.LAST),
                    "step_committed",
                    RunEvents.committed(step.seqNo(), step.type(), step.index())));
        }
        if (run.status() != RunStatus.RUNNING) {
            long next = run.steps().size() + 1L;
            ObjectNode data = json.objectNode().put("status", run.status().label());
            data.set("result", RunDocuments.result(run));
            data.put("error", error(run));
            Optional<StoredApproval> pending = run.pendingApproval();
            pending.ifPresent(p -> {
                ObjectNode shown = data.putObject("pending").put("seq_no", p.seqNo());
                if (p.isElement()) {
                    shown.put("element", p.element());
                }
                shown.put("tool", p.tool()).set("params", p.params());
            });
            data.put("committed_steps", run.steps().size());
            events.add(new RunEvent(RunEvent.id(next, run.sessions(), RunEvent.LAST), "run_finished", data));
        }
        return events;
    }

    /** {@code seq_no 3 (calling): message}, as the CLI prints a run's error, or null. */
    static String error(StoredRun run) {
        if (run.error() == null || run.error().isNull()) {
            return null;
        }
        String message = run.error().path("message").asText();
        if (run.error().path("seq_no").isNull() || run.error().path("seq_no").isMissingNode()) {
            return message;
        }
        String where =
                "seq_no " + run.error().path("seq_no").asInt() + (run.error().has("line") ? ", " : " (")
                        + run.error().path("type").asText() + "): ";
        return run.error().has("line")
                ? "line " + run.error().path("line").asInt() + " (" + where + message
                : where + message;
    }
}
