package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.CallContext;
import java.util.Locale;
import java.util.Objects;

/**
 * A call a stored run waits for a person about: a reviewer's approval ({@link Kind#APPROVAL}) or an answer to a
 * {@code human_input} question ({@link Kind#INPUT}). Each element of a {@code for_each} step that waits is a waiting
 * call of its own, with its own id, element index and params; {@link DurableRuns#waiting} lists them in the one
 * order every view uses (the first is the one the run's message, {@code planvm show}, the HTTP API, MCP and the run
 * browser name).
 *
 * @param runId     the run that waits for it: the run itself, or the child run (a plan tool's) whose wait its parent
 *                  waits for
 * @param callId    what a decision or answer names it by ({@link StoredApproval#callId}, {@link StoredInput#callId})
 * @param stepIndex the step that makes the call (the run's committed steps + 1)
 * @param element   the call's index in its {@code for_each} list, or {@link CallContext#NO_ELEMENT}
 * @param params    the call's interpolated params, secrets redacted (a question's prompt, schema or choices)
 */
public record WaitingCall(
        String runId,
        Kind kind,
        String callId,
        int stepIndex,
        int seqNo,
        int element,
        String tool,
        JsonNode params,
        String requestedAt) {

    /** What the call waits for. */
    public enum Kind {
        /** A reviewer's approval ({@code planvm approve}). */
        APPROVAL,
        /** A person's answer ({@code planvm answer}). */
        INPUT;

        /** {@code approval} or {@code input}, as JSON documents say it. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public WaitingCall {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(callId, "callId");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
    }

    /** The approval call {@code a} of run {@code runId}. */
    public static WaitingCall of(String runId, StoredApproval a) {
        return new WaitingCall(
                runId,
                Kind.APPROVAL,
                a.callId(runId),
                a.stepIndex(),
                a.seqNo(),
                a.element(),
                a.tool(),
                a.params(),
                a.requestedAt());
    }

    /** The question {@code input} of run {@code runId}. */
    public static WaitingCall of(String runId, StoredInput input) {
        return new WaitingCall(
                runId,
                Kind.INPUT,
                input.callId(),
                input.stepIndex(),
                input.seqNo(),
                input.element(),
                input.tool(),
                input.params(),
                input.requestedAt());
    }

    /** Whether the call is one element of a {@code for_each} step. */
    public boolean isElement() {
        return element != CallContext.NO_ELEMENT;
    }

    /** {@code seq_no 1} or {@code seq_no 1 (for_each element 2)}: where the call is. */
    public String where() {
        return "seq_no " + seqNo + (isElement() ? " (for_each element " + element + ")" : "");
    }

    /**
     * {@code seq_no 1 (for_each element 2) calls send_mail with {"to":"bob@x"}}, or {@code seq_no 0 (for_each element
     * 1) asks: Delete customer b?}: what a person is asked about (params and prompt as stored; make it safe for a
     * terminal before printing it).
     */
    public String describe() {
        return kind == Kind.APPROVAL
                ? where() + " calls " + tool + " with " + params
                : where() + " asks: " + params.path("prompt").asText();
    }

    /**
     * As the HTTP API, MCP and {@code planvm show} give it: {@code {"call_id", "kind", "step", "seq_no", "element"
     * (an element of a map only), "tool", "params", "requested"}}, and {@code "decision", "reason", "decided"} (an
     * approval) or {@code "answer", "answered"} (an input), null while it waits.
     */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance
                .objectNode()
                .put("call_id", callId)
                .put("kind", kind.label())
                .put("step", stepIndex)
                .put("seq_no", seqNo);
        if (isElement()) {
            json.put("element", element);
        }
        json.put("tool", tool);
        json.set("params", params);
        json.put("requested", requestedAt);
        if (kind == Kind.APPROVAL) {
            json.putNull("decision").putNull("reason").putNull("decided");
        } else {
            json.putNull("answer").putNull("answered");
        }
        return json;
    }
}
