package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredApproval;
import dev.planvm.vm.durable.StoredInput;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.durable.WaitingCall;
import dev.planvm.vm.run.RunStatus;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a stored run waits for, as the API shows it ({@code pending}, {@code pending_calls}) and as an approval or an
 * answer must name it. The calls come from {@link DurableRuns#waiting} — the one list, in the one order, the CLI and
 * MCP use too — so every view names the same call first; each element of a {@code for_each} that waits is a call of
 * its own, and a request that names a call the run does not wait for is a conflict that decides nothing.
 */
final class PendingCalls {

    private final DurableRuns runs;
    private final RunStore store;
    private final Function<StoredRun, String> state;

    /** @param state a run's state as the API says it ({@code running}, {@code interrupted}, ...), for messages */
    PendingCalls(DurableRuns runs, RunStore store, Function<StoredRun, String> state) {
        this.runs = runs;
        this.store = store;
        this.state = state;
    }

    /**
     * {@code pending}: the first call the run waits for, else the timer of the sleep it waits for ({@code {"kind":
     * "sleep", "seq_no", "tool": "sleep", "wake_at"}}), or null.
     */
    JsonNode first(StoredRun stored) {
        List<WaitingCall> calls = waiting(stored);
        if (!calls.isEmpty()) {
            return json(stored, calls.get(0));
        }
        if (stored.status() != RunStatus.WAITING) {
            return null;
        }
        StoredRun run = runs.tree(stored).waiting();
        Optional<ObjectNode> sleep = store.wakeAt(run.id()).map(at -> sleep(run, at));
        if (run != stored) {
            sleep.ifPresent(p -> p.put("child_run", run.id()));
        }
        return sleep.orElse(null);
    }

    /** A run's wait for its sleep's timer. */
    private static ObjectNode sleep(StoredRun run, Instant wakeAt) {
        ObjectNode json = JsonNodeFactory.instance.objectNode().put("kind", "sleep");
        if (run.error() != null && run.error().path("seq_no").isInt()) {
            json.put("seq_no", run.error().path("seq_no").asInt());
        }
        return json.put("tool", "sleep").put("wake_at", wakeAt.toString());
    }

    /**
     * {@code pending_calls}: every call the run waits for, {@code pending} first — one per element of a {@code
     * for_each} that waits — at most {@code max} ({@code pending_calls_more} in {@code into} counts the rest); null
     * when it does not wait.
     */
    JsonNode all(StoredRun stored, ObjectNode into, int max) {
        List<WaitingCall> calls = waiting(stored);
        if (calls.isEmpty()) {
            return null;
        }
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        calls.stream().limit(max).forEach(call -> list.add(json(stored, call)));
        if (calls.size() > max) {
            into.put("pending_calls_more", calls.size() - max);
        }
        return list;
    }

    /**
     * The approvals {@code callIds} name, each one {@code run} waits for.
     *
     * @throws ServiceException a conflict when the run does not wait for approval, or not for one of them
     */
    List<StoredApproval> approvals(StoredRun run, List<String> callIds) {
        List<StoredApproval> pending = run.status() == RunStatus.WAITING ? run.pendingApprovals() : List.of();
        if (pending.isEmpty()) {
            throw new ServiceException(
                    ServiceException.Kind.CONFLICT,
                    "run " + run.id() + " does not wait for approval (it is " + state.apply(run) + ")");
        }
        Set<String> waiting = new HashSet<>();
        pending.forEach(a -> waiting.add(a.callId(run.id())));
        for (String callId : callIds) {
            if (!waiting.contains(callId)) {
                throw new ServiceException(
                        ServiceException.Kind.CONFLICT,
                        "run " + run.id() + " does not wait for call '" + callId + "': GET /v1/runs/" + run.id()
                                + " names the calls it waits for (pending.call_id, pending_calls)");
            }
        }
        return pending.stream()
                .filter(a -> callIds.contains(a.callId(run.id())))
                .toList();
    }

    /**
     * The question {@code callId} names, one {@code run} waits for.
     *
     * @throws ServiceException a conflict when the run does not wait for input, or not for that one
     */
    StoredInput input(StoredRun run, String callId) {
        List<StoredInput> pending = run.status() == RunStatus.WAITING ? store.pendingInputs(run.id()) : List.of();
        if (pending.isEmpty()) {
            throw new ServiceException(
                    ServiceException.Kind.CONFLICT,
                    "run " + run.id() + " does not wait for input (it is " + state.apply(run) + ")");
        }
        return pending.stream()
                .filter(input -> input.callId().equals(callId))
                .findFirst()
                .orElseThrow(() -> new ServiceException(
                        ServiceException.Kind.CONFLICT,
                        "run " + run.id() + " does not wait for input '" + callId + "': GET /v1/runs/" + run.id()
                                + " names the inputs it waits for (pending.call_id, pending_calls)"));
    }

    /** The calls {@code stored} waits for: its own, or a waiting child run's; none when it does not wait. */
    private List<WaitingCall> waiting(StoredRun stored) {
        return stored.status() == RunStatus.WAITING ? runs.waiting(stored.id()) : List.of();
    }

    /** A waiting call as the API gives it; a child run's names that run ({@code child_run}). */
    private static ObjectNode json(StoredRun stored, WaitingCall call) {
        ObjectNode json = call.toJson();
        if (!call.runId().equals(stored.id())) {
            json.put("child_run", call.runId());
        }
        return json;
    }
}
