package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.instructions.ForEach;
import dev.planvm.vm.RunMode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A request to continue a stored run ({@code POST /v1/runs/{id}/resume | approve | rerun}):
 * <pre>{@code
 * resume:  {"mode": "live" | "replay", "cassette": {...}, "force": false}
 * approve: {"call_id": "…", "approved": true | false, "reason": "text"}   (also mode and cassette)
 *          {"call_ids": ["…", "…"], "approved": true | false, "reason": "text"}  (several calls the run waits for)
 * rerun:   {"from_seq": 3, "inputs": {"k": v}}                      (also mode and cassette)
 * }</pre>
 * Every field is optional but {@code from_seq} of a rerun and {@code call_id} (or {@code call_ids}) of an approval
 * (the {@code pending.call_id} the waiting run reports, or ids of its {@code pending_calls}: an approval names each
 * call it approves, so approving the elements of a {@code for_each} step at once is an explicit list); an empty
 * body is an empty object.
 *
 * @param callIds the calls an approval names: {@code call_id} alone, or {@code call_ids}; empty for the others
 */
public record ContinueRequest(
        RunMode mode,
        boolean force,
        boolean approved,
        String reason,
        Integer fromSeq,
        Map<String, JsonNode> inputs,
        List<String> callIds) {

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
            "call_id",
            "call_ids");
    /** The longest call id read. */
    private static final int MAX_CALL_ID = 64;

    public ContinueRequest {
        inputs = Map.copyOf(inputs);
        callIds = List.copyOf(callIds);
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
        List<String> callIds = fields.strings("call_ids");
        if (callId != null && fields.node("call_ids") != null) {
            throw Fields.bad("/call_ids", "give call_id (one call) or call_ids (several), not both");
        }
        if (fields.node("call_ids") != null && (callIds.isEmpty() || callIds.size() > ForEach.MAX_ELEMENTS)) {
            throw Fields.bad(
                    "/call_ids",
                    "call_ids lists 1 to " + ForEach.MAX_ELEMENTS + " calls of the run's pending_calls, not "
                            + callIds.size());
        }
        for (int i = 0; i < callIds.size(); i++) {
            if (callIds.get(i).isBlank() || callIds.get(i).length() > MAX_CALL_ID) {
                throw Fields.bad("/call_ids/" + i, "names a call: a call_id of the waiting run's pending_calls");
            }
        }
        return new ContinueRequest(
                RunRequest.mode(fields),
                fields.bool("force", false),
                fields.bool("approved", true),
                reason,
                fields.integer("from_seq", 0),
                fields.variables("inputs"),
                callId != null ? List.of(callId) : callIds);
    }
}
