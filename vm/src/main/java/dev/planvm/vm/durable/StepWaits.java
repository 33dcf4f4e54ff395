package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.approval.Approvals;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a running step records about the calls that wait, and finds again when it runs again: the approvals it asks
 * for and their decisions, the {@code human_input} questions it asks and their answers, the wake times of its
 * {@code sleep} calls — each by run, step and element (a call's params as the store writes them, secrets
 * redacted). Holds the store's lock like every method of {@link RunStore}.
 */
final class StepWaits {

    private final Object lock;
    private final ApprovalRows approvals;
    private final WaitRows waits;
    private final StoreJson json;

    StepWaits(Object lock, ApprovalRows approvals, WaitRows waits, StoreJson json) {
        this.lock = lock;
        this.approvals = approvals;
        this.waits = waits;
        this.json = json;
    }

    /** Records that run {@code runId}'s step {@code stepIndex} waits for a decision about this call (of {@code element}). */
    void requestApproval(String runId, int stepIndex, int seqNo, int element, String tool, JsonNode params) {
        synchronized (lock) {
            approvals.request(runId, stepIndex, seqNo, element, tool, json.write(params));
        }
    }

    /** The decision recorded for this call of run {@code runId}'s step {@code stepIndex} (and {@code element}), if any. */
    Optional<Approvals.Decision> decision(String runId, int stepIndex, int element, String tool, JsonNode params) {
        synchronized (lock) {
            return approvals.decision(runId, stepIndex, element, tool, json.write(params));
        }
    }

    /**
     * Decides each of {@code calls} of run {@code runId} (approvals it waits for), in one transaction: all of them, or
     * — when one of them no longer waits (another reviewer decided it) — none; returns whether they were decided.
     */
    boolean decide(String runId, List<StoredApproval> calls, boolean approved, String reason) {
        synchronized (lock) {
            return approvals.decide(runId, calls, json::write, approved, reason == null ? "" : json.redact(reason));
        }
    }

    /** Records a decision about one call right when a reviewer made it (a prompt on a terminal). */
    void decide(String runId, int stepIndex, int element, String tool, JsonNode params, Approvals.Decision decision) {
        synchronized (lock) {
            approvals.decide(
                    runId,
                    stepIndex,
                    element,
                    tool,
                    json.write(params),
                    decision.approved(),
                    json.redact(decision.reason()));
        }
    }

    /** Records that run {@code runId}'s step {@code stepIndex} waits for an answer to this {@code human_input} call. */
    void requestInput(String runId, int stepIndex, int seqNo, int element, JsonNode params) {
        synchronized (lock) {
            waits.requestInput(runId, stepIndex, seqNo, element, json.write(params));
        }
    }

    /** The answer recorded for this {@code human_input} call of run {@code runId}'s step {@code stepIndex}, if any. */
    Optional<JsonNode> answerOf(String runId, int stepIndex, int element, JsonNode params) {
        synchronized (lock) {
            return waits.answerOf(runId, stepIndex, element, json.write(params)).map(StoreJson::parse);
        }
    }

    /** Answers run {@code runId}'s pending input of step {@code stepIndex} and {@code element}; false when it has none there. */
    boolean answer(String runId, int stepIndex, int element, JsonNode answer) {
        synchronized (lock) {
            return waits.answer(runId, stepIndex, element, json.write(answer));
        }
    }

    /**
     * The wake time kept for this {@code sleep} call of run {@code runId}'s step {@code stepIndex} (and {@code element}:
     * each element of a map keeps its own), else {@code planned}, kept now.
     */
    Instant wakeAt(String runId, int stepIndex, int seqNo, int element, JsonNode params, Instant planned) {
        synchronized (lock) {
            return waits.wakeAt(runId, stepIndex, seqNo, element, json.write(params), planned);
        }
    }

    /** The wake times run {@code id} (the full id) keeps for its {@code sleep} calls, by step and element. */
    List<StoredWake> wakes(String id) {
        synchronized (lock) {
            return waits.wakes(id);
        }
    }

    /**
     * When this sleep call of run {@code runId}'s step {@code stepIndex} (and {@code element}) started (its wake time
     * was kept), if it did.
     */
    Optional<Instant> sleptSince(String runId, int stepIndex, int element) {
        synchronized (lock) {
            return waits.sleptSince(runId, stepIndex, element);
        }
    }
}
