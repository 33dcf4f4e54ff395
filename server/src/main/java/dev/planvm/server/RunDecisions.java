package dev.planvm.server;

import static dev.planvm.server.RunLookup.guard;
import static dev.planvm.server.Submissions.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredInput;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.run.RunStatus;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What a request decides about a stored run: resume it, approve or deny the call it waits for, answer its
 * question, rerun it from a step, cancel it. Each request is checked against the run as stored before a session
 * is submitted (a call it does not wait for is a conflict), and again when the session runs.
 */
final class RunDecisions {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> INPUT_FIELDS = Set.of("call_id", "value");

    private final RunStore store;
    private final DurableRuns runs;
    private final PendingCalls waiting;
    private final RunSessions sessions;
    private final Submissions submissions;
    private final RunLookup lookup;

    RunDecisions(
            RunStore store,
            DurableRuns runs,
            PendingCalls waiting,
            RunSessions sessions,
            Submissions submissions,
            RunLookup lookup) {
        this.store = store;
        this.runs = runs;
        this.waiting = waiting;
        this.sessions = sessions;
        this.submissions = submissions;
        this.lookup = lookup;
    }

    /** See {@link PlanService#resume}. */
    PlanService.Submitted resume(String id, ContinueRequest request) {
        StoredRun run = lookup.find(id);
        return submissions.submit(
                run.sessions() + 1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(run.id(), run.steps().size()),
                        (runId, own) ->
                                runs.resume(runId, own.apply(session(request.mode())), Map.of(), request.force())),
                false);
    }

    /** See {@link PlanService#approve}. */
    PlanService.Submitted approve(String id, ContinueRequest request) {
        if (request.callIds().isEmpty()) {
            throw Fields.bad(
                    "/call_id",
                    "an approval names the call it approves: {\"call_id\": ..., \"approved\": true | false}, "
                            + "with the pending.call_id of GET /v1/runs/" + id);
        }
        // a parent waiting for its child: the child's call, the parent runs
        DurableRuns.Tree tree = lookup.tree(lookup.find(id));
        guard(() -> waiting.approvals(tree.waiting(), request.callIds()));
        StoredRun run = tree.root();
        return submissions.submit(
                run.sessions() + 1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(run.id(), run.steps().size()), (runId, own) -> {
                            // still those calls, now that the session runs
                            guard(() -> waiting.approvals(
                                    lookup.tree(lookup.find(runId)).waiting(), request.callIds()));
                            return runs.approve(
                                    runId,
                                    request.callIds(),
                                    request.approved(),
                                    request.reason(),
                                    own.apply(session(request.mode())),
                                    Map.of());
                        }),
                false);
    }

    /** See {@link PlanService#answer}. */
    PlanService.Submitted answer(String id, JsonNode body) {
        Fields fields = Fields.of(body == null ? JSON.objectNode() : body, INPUT_FIELDS);
        String callId = fields.text("call_id", null);
        if (callId == null || callId.isBlank() || callId.length() > 64) {
            throw Fields.bad(
                    "/call_id",
                    "an answer names the input it answers: {\"call_id\": ..., \"value\": ...}, with the "
                            + "pending.call_id of GET /v1/runs/" + id);
        }
        JsonNode value = fields.node("value");
        if (value == null) {
            throw Fields.bad("/value", "the answer is missing: {\"call_id\": ..., \"value\": ...}");
        }
        // a parent waiting for its child: the child's input, the parent runs
        DurableRuns.Tree tree = lookup.tree(lookup.find(id));
        StoredInput pending = guard(() -> waiting.input(tree.waiting(), callId));
        StoredRun run = tree.root();
        runs.refusal(pending, value)
                .ifPresent(
                        reason -> { // the durable runs' check: schema, choices, limits
                            throw new ServiceException(
                                    ServiceException.Kind.REJECTED, "run " + id + " keeps waiting: " + reason);
                        });
        return submissions.submit(
                run.sessions() + 1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(run.id(), run.steps().size()), (runId, own) -> {
                            // still that input, now that the session runs
                            guard(() -> waiting.input(
                                    lookup.tree(lookup.find(runId)).waiting(), callId));
                            return runs.answer(runId, callId, value, own.apply(session(RunMode.live())), Map.of());
                        }),
                false);
    }

    /** See {@link PlanService#rerun}. */
    PlanService.Submitted rerun(String id, ContinueRequest request) {
        if (request.fromSeq() == null) {
            throw Fields.bad("/from_seq", "a rerun needs from_seq: the seq_no to run from");
        }
        StoredRun run = lookup.find(id);
        return submissions.submit(
                1,
                new RunSessions.Work(
                        own -> {
                            String newId = runs.createRerun(
                                    run.id(),
                                    request.fromSeq(),
                                    request.inputs(),
                                    null,
                                    own.apply(session(request.mode())));
                            return new RunSessions.Created(
                                    newId,
                                    guard(() -> store.find(newId))
                                            .map(r -> r.steps().size())
                                            .orElse(0));
                        },
                        (newId, own) -> runs.run(newId)),
                false);
    }

    /** See {@link PlanService#cancel}. */
    ObjectNode cancel(String id, String reason) {
        StoredRun run = lookup.find(id);
        String why = reason == null || reason.isBlank() ? "cancelled through the API" : reason;
        Optional<CompletableFuture<DurableRun>> session = sessions.cancel(run.id(), why);
        if (session.isPresent()) {
            // a session can end in a wait (a sleep, a question, an approval) instead of at its next step: the
            // cancel then ends that wait, as it ends the wait of a run that no session holds
            session.get().thenRun(() -> {
                try {
                    endWait(run.id(), why);
                } catch (RuntimeException gone) {
                    // the run is not waiting, or the store is closing: nothing is left to cancel
                }
            });
            return JSON.objectNode()
                    .put("id", run.id())
                    .put("state", "cancelling")
                    .put("message", "the run stops before its next step");
        }
        if (run.status() == RunStatus.WAITING && guard(() -> endWait(run.id(), why))) {
            return JSON.objectNode()
                    .put("id", run.id())
                    .put("state", "failed")
                    .put("message", "the waiting run was cancelled");
        }
        throw new ServiceException(
                ServiceException.Kind.CONFLICT,
                "run " + run.id() + " is " + lookup.state(run)
                        + " and does not run in this server: there is nothing to cancel");
    }

    /** Fails waiting run {@code id} (and the children its wait waits for) and drops its timer; false when it does not wait. */
    private boolean endWait(String id, String why) {
        if (!runs.cancelWaiting(id, why)) {
            return false;
        }
        submissions.cancelTimer(id);
        return true;
    }
}
