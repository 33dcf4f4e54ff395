package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.approval.InputRequest;
import dev.planvm.tools.call.Call;
import java.time.Instant;
import java.util.Optional;

/**
 * Approvals of one session of a stored run, decided through the store: the decision recorded for the
 * call (same step, element of a {@code for_each} step, tool and params), else what the session's reviewer (a prompt on a terminal) says,
 * recorded; else the call is stored as pending and the run waits. The answers to {@code human_input} calls
 * and the wake times of {@code sleep} calls go through the store the same way, each element of a map on its own.
 */
final class StoreApprovals implements Approvals {

    private final RunStore store;
    private final String runId;
    private final StoreJournal journal;
    private final Approvals reviewer;

    /** @param reviewer asked when the store has no decision, or {@code null} */
    StoreApprovals(RunStore store, String runId, StoreJournal journal, Approvals reviewer) {
        this.store = store;
        this.runId = runId;
        this.journal = journal;
        this.reviewer = reviewer;
    }

    @Override
    public Optional<Decision> decide(Call.ToolCall call) {
        int step = journal.nextStepIndex();
        int element = call.context().element();
        Optional<Decision> recorded = store.stepWaits().decision(runId, step, element, call.tool(), call.params());
        if (recorded.isPresent()) {
            return recorded;
        }
        Optional<Decision> asked = reviewer == null ? Optional.empty() : reviewer.decide(call);
        store.stepWaits().requestApproval(runId, step, call.context().seqNo(), element, call.tool(), call.params());
        asked.ifPresent(
                decision -> store.stepWaits().decide(runId, step, element, call.tool(), call.params(), decision));
        return asked;
    }

    /**
     * The answer recorded for the call, else what the session's person (a prompt on a terminal) answers —
     * recorded when it is a right answer; else the call is stored as pending and the run waits.
     */
    @Override
    public Optional<JsonNode> answer(Call.ToolCall call) {
        int step = journal.nextStepIndex();
        int element = call.context().element();
        Optional<JsonNode> recorded = store.stepWaits().answerOf(runId, step, element, call.params());
        if (recorded.isPresent()) {
            return recorded;
        }
        store.stepWaits().requestInput(runId, step, call.context().seqNo(), element, call.params());
        Optional<JsonNode> asked = reviewer == null ? Optional.empty() : reviewer.answer(call);
        if (asked.isPresent()
                && InputRequest.of(call.params()).refusal(asked.get()).isEmpty()) {
            store.stepWaits().answer(runId, step, element, asked.get());
        }
        return asked;
    }

    @Override
    public boolean waitsForInput() {
        return true;
    }

    /** Whether a sleep with time left stops the run, waiting for its timer (a server's runs), or sleeps on its thread. */
    @Override
    public boolean waitsForTimer() {
        return journal.sleepsWait();
    }

    @Override
    public Instant sleptSince(Call.ToolCall call, Instant now) {
        return store.stepWaits()
                .sleptSince(runId, journal.nextStepIndex(), call.context().element())
                .orElse(now);
    }

    @Override
    public Instant wakeAt(Call.ToolCall call, Instant planned) {
        return store.stepWaits()
                .wakeAt(
                        runId,
                        journal.nextStepIndex(),
                        call.context().seqNo(),
                        call.context().element(),
                        call.params(),
                        planned);
    }
}
