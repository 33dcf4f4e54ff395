package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.vm.RunMode;
import java.util.Map;
import java.util.Set;

/**
 * A request to continue a stored run ({@code POST /v1/runs/{id}/resume | approve | rerun}):
 * <pre>{@code
 * resume:  {"mode": "live" | "replay", "cassette": {...}, "force": false}
 * approve: {"call_id": "…", "approved": true | false, "reason": "text"}   (also mode and cassette)
 * rerun:   {"from_seq": 3, "inputs": {"k": v}}                      (also mode and cassette)
 * }</pre>
 * Every field is optional but {@code from_seq} of a rerun and {@code call_id} of an approval (the
 * {@code pending.call_id} the waiting run reports: an approval names the call it approves); an empty body is
 * an empty object.
 */
public record ContinueRequest(
        RunMode mode,
        boolean force,
        boolean approved,
        String reason,
        Integer fromSeq,
        Map<String, JsonNode> inputs,
        String callId) {

    private static final Set<String> FIELDS = Set.of(
            "mode",
            "cassette",
            "replay_timing",
            "dry_run_conditions",
            "force",
            "approved",
            "reason",
            "from_seq",
            "inputs",
            "call_id");
    /** The longest call id read. */
    private static final int MAX_CALL_ID = 64;

    public ContinueRequest {
        inputs = Map.copyOf(inputs);
        reason = reason == null ? "" : reason;
    }

    /** Reads a body ({@code null}: an empty object); a field of the wrong shape is a {@code bad_request}. */
    public static ContinueRequest fromJson(JsonNode body) {
        Fields fields = Fields.of(body == null ? JsonNodeFactory.instance.objectNode() : body, FIELDS);
        String reason = fields.text("reason", "");
        if (reason.length() > 2000) {
            throw Fields.bad("/reason", "the reason is " + reason.length() + " characters; 2000 at most");
        }
        String callId = fields.text("call_id", null);
        if (callId != null && (callId.isBlank() || callId.length() > MAX_CALL_ID)) {
            throw Fields.bad("/call_id", "call_id names a call: the pending.call_id of the waiting run");
        }
        return new ContinueRequest(
                RunRequest.mode(fields),
                fields.bool("force", false),
                fields.bool("approved", true),
                reason,
                fields.integer("from_seq", 0),
                fields.variables("inputs"),
                callId);
    }
}
