package dev.planvm.vm.durable;

import dev.planvm.vm.run.RunStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a waiting stored run waits for, and which of those calls a decision or an answer names. A run waits at one
 * step; at a {@code for_each} step every element that needs a person is a call of its own, so a run may wait for
 * several calls at once: they are listed approvals first, then questions, each in element order, and the first is
 * the one a decision or answer that names no call means — the one every view names. Deciding or answering one call
 * never decides another: many at once is an explicit list ({@code planvm approve RUN --all} lists what it approves).
 */
final class Waits {

    private final RunStore store;

    Waits(RunStore store) {
        this.store = store;
    }

    /** The calls {@code run} itself waits for (none unless it is waiting). */
    List<WaitingCall> of(StoredRun run) {
        if (run.status() != RunStatus.WAITING) {
            return List.of();
        }
        List<WaitingCall> calls = new ArrayList<>();
        run.pendingApprovals().forEach(a -> calls.add(WaitingCall.of(run.id(), a)));
        store.pendingInputs(run.id()).forEach(i -> calls.add(WaitingCall.of(run.id(), i)));
        return calls;
    }

    /**
     * The approvals {@code callIds} name among those {@code run} waits for, in the order they are named (each once);
     * none named: the first it waits for.
     *
     * @throws DurableRunException (a conflict) naming the first id the run does not wait for, and the ids it does
     */
    List<StoredApproval> approvals(StoredRun run, List<String> callIds) {
        List<StoredApproval> pending = run.pendingApprovals();
        if (callIds.isEmpty()) {
            return pending.isEmpty() ? List.of() : List.of(pending.get(0));
        }
        Map<String, StoredApproval> byId = new LinkedHashMap<>();
        pending.forEach(a -> byId.put(a.callId(run.id()), a));
        Map<String, StoredApproval> named = new LinkedHashMap<>();
        for (String id : callIds) {
            StoredApproval call = byId.get(id);
            if (call == null) {
                throw new DurableRunException("run " + run.id() + " does not wait for the approval of call '" + id
                        + "'; it waits for " + ids(byId.keySet()) + " (planvm show " + run.id() + " lists them)");
            }
            named.put(id, call);
        }
        return List.copyOf(named.values());
    }

    /**
     * The question {@code callId} names among those {@code run} waits for; {@code null}: the first it waits for.
     *
     * @throws DurableRunException (a conflict) when the run does not wait for input, or not for that one
     */
    StoredInput input(StoredRun run, String callId) {
        List<StoredInput> pending = run.status() == RunStatus.WAITING ? store.pendingInputs(run.id()) : List.of();
        if (pending.isEmpty()) {
            throw new DurableRunException("run " + run.id() + " does not wait for input (it is "
                    + run.status().label() + ")");
        }
        if (callId == null) {
            return pending.get(0);
        }
        return pending.stream()
                .filter(input -> input.callId().equals(callId))
                .findFirst()
                .orElseThrow(() -> new DurableRunException("run " + run.id() + " waits for input "
                        + ids(pending.stream().map(StoredInput::callId).toList()) + ", not " + callId));
    }

    /** {@code a, b and 3 more}: the first few ids. */
    private static String ids(java.util.Collection<String> ids) {
        List<String> all = List.copyOf(ids);
        if (all.size() <= 3) {
            return String.join(", ", all);
        }
        return String.join(", ", all.subList(0, 3)) + " and " + (all.size() - 3) + " more";
    }
}
