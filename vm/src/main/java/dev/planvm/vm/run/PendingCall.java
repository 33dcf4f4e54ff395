package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import java.util.Objects;

/**
 * A tool call a run waits to have approved (or answered): the step that makes it, the tool, its interpolated
 * params (secrets redacted), and which element of a {@code for_each} step it is.
 *
 * @param element the call's index in its {@code for_each} list, or {@link CallContext#NO_ELEMENT}
 */
public record PendingCall(int seqNo, String type, String tool, JsonNode params, int element) {
    public PendingCall {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
    }

    /** A call that is no element of a map. */
    public PendingCall(int seqNo, String type, String tool, JsonNode params) {
        this(seqNo, type, tool, params, CallContext.NO_ELEMENT);
    }

    /** Whether the call is one element of a {@code for_each} step. */
    public boolean isElement() {
        return element != CallContext.NO_ELEMENT;
    }

    /**
     * {@code seq_no 3 calls send_mail with {"to":"ann@example.com"}} ({@code seq_no 3 (for_each element 1) calls
     * ...} for an element of a map): what a reviewer is asked about.
     */
    public String describe() {
        return "seq_no " + seqNo + (isElement() ? " (for_each element " + element + ")" : "") + " calls " + tool
                + " with " + params;
    }
}
