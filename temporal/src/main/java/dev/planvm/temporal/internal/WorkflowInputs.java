package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.temporal.contract.InputAnswer;
import dev.planvm.temporal.contract.WaitingInput;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.approval.InputRequest;
import dev.planvm.tools.call.Call;
import io.temporal.workflow.Workflow;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The person a plan workflow asks: a {@code human_input} call waits (a durable {@code Workflow.await}) until the
 * workflow's {@code answer} update brings an answer that fits the input; approvals are not decided here (a call
 * that needs one ends the run waiting, as before). Calls waiting at once are answered by {@code seq_no}; two
 * waiting at the same {@code seq_no} (a {@code for_each}) are answered in the order they asked.
 */
final class WorkflowInputs implements Approvals {

    private final List<Waiting> waiting = new ArrayList<>();

    @Override
    public Optional<Decision> decide(Call.ToolCall call) {
        return Optional.empty();
    }

    @Override
    public Optional<JsonNode> answer(Call.ToolCall call) {
        Waiting input = new Waiting(call.context().seqNo(), call.params(), InputRequest.of(call.params()));
        waiting.add(input);
        Workflow.await(() -> input.answer != null);
        waiting.remove(input);
        return Optional.of(input.answer);
    }

    @Override
    public boolean waitsForInput() {
        return true;
    }

    /** The calls waiting now, in the order they asked. */
    List<WaitingInput> waiting() {
        List<WaitingInput> all = new ArrayList<>();
        for (Waiting input : waiting) {
            if (input.answer == null) {
                all.add(new WaitingInput(input.seqNo, input.params));
            }
        }
        return all;
    }

    /**
     * Throws, with the reason, unless a call waits for {@code answer} and the answer fits it (changes nothing).
     *
     * @throws IllegalArgumentException naming the call and why the answer does not fit
     * @throws IllegalStateException    when no call (or no call at that seq_no) waits
     */
    void check(InputAnswer answer) {
        Waiting input = target(answer);
        Optional<String> refusal = input.request.refusal(answer.value());
        if (refusal.isPresent()) {
            throw new IllegalArgumentException(
                    "human_input at seq_no " + input.seqNo + " refuses the answer: " + refusal.get());
        }
    }

    /** Gives {@code answer} (checked by {@link #check}) to its call; returns the call's seq_no. */
    int give(InputAnswer answer) {
        Waiting input = target(answer);
        input.answer = answer.value();
        return input.seqNo;
    }

    private Waiting target(InputAnswer answer) {
        List<Waiting> open = new ArrayList<>();
        for (Waiting input : waiting) {
            if (input.answer == null && (answer.seqNo() == null || answer.seqNo() == input.seqNo)) {
                open.add(input);
            }
        }
        if (open.isEmpty()) {
            throw new IllegalStateException(
                    answer.seqNo() == null
                            ? "the run waits for no human_input"
                            : "no human_input at seq_no " + answer.seqNo() + " waits for an answer");
        }
        if (answer.seqNo() == null && open.stream().map(w -> w.seqNo).distinct().count() > 1) {
            throw new IllegalStateException("human_input calls at several seq_no wait: "
                    + open.stream().map(w -> String.valueOf(w.seqNo)).distinct().toList()
                    + "; say which one to answer");
        }
        return open.get(0);
    }

    private static final class Waiting {
        final int seqNo;
        final JsonNode params;
        final InputRequest request;
        JsonNode answer;

        Waiting(int seqNo, JsonNode params, InputRequest request) {
            this.seqNo = seqNo;
            this.params = params;
            this.request = request;
        }
    }
}
