package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.approval.Approvals;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The {@code approvals} table: calls that needed a reviewer's approval, found again by run, step,
 * tool and params (as the store writes them, secrets redacted). Callers hold the store's lock.
 */
final class ApprovalRows {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private final StoreDatabase db;

    ApprovalRows(StoreDatabase db) {
        this.db = db;
    }

    /** Records that the call waits for a decision (once: asking again changes nothing). */
    void request(String runId, int stepIndex, int seqNo, String tool, String paramsJson) {
        db.update(
                "INSERT OR IGNORE INTO approvals (run_id, step_index, seq_no, tool, params_json, requested_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                runId,
                stepIndex,
                seqNo,
                tool,
                paramsJson,
                now());
    }

    /** The decision recorded for this call, if any. */
    Optional<Approvals.Decision> decision(String runId, int stepIndex, String tool, String paramsJson) {
        return db
                .query(
                        "SELECT decision, reason FROM approvals WHERE run_id = ? AND step_index = ? AND tool = ? "
                                + "AND params_json = ? AND decision IS NOT NULL",
                        rs -> new Approvals.Decision("approved".equals(rs.getString(1)), rs.getString(2)),
                        runId,
                        stepIndex,
                        tool,
                        paramsJson)
                .stream()
                .findFirst();
    }

    /** Decides every call of the run that waits; returns how many there were. */
    int decide(String runId, boolean approved, String reason) {
        return db.update(
                "UPDATE approvals SET decision = ?, reason = ?, decided_at = ? WHERE run_id = ? AND decision IS NULL",
                approved ? "approved" : "denied",
                reason == null ? "" : reason,
                now(),
                runId);
    }

    /** Every call of the run that needed approval, in the order they were asked. */
    List<StoredApproval> of(String runId) {
        return db.query(
                "SELECT step_index, seq_no, tool, params_json, requested_at, decision, reason, decided_at "
                        + "FROM approvals WHERE run_id = ? ORDER BY step_index, requested_at",
                rs -> new StoredApproval(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getString(3),
                        parse(rs.getString(4)),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getString(7),
                        rs.getString(8)),
                runId);
    }

    void delete(String runId) {
        db.update("DELETE FROM approvals WHERE run_id = ?", runId);
    }

    private static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StoreException("the run store holds malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
