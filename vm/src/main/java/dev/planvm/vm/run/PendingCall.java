package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A tool call a run waits to have approved: the step that makes it, the tool, and its interpolated
 * params (secrets redacted).
 */
public record PendingCall(int seqNo, String type, String tool, JsonNode params) {
    public PendingCall {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
    }

    /** {@code seq_no 3 calls send_mail with {"to":"ann@example.com"}}: what a reviewer is asked about. */
    public String describe() {
        return "seq_no " + seqNo + " calls " + tool + " with " + params;
    }
}
