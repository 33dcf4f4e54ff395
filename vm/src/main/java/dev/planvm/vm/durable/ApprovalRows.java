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
import java.util.function.Function;

/**
 * The {@code approvals} table: calls that needed a reviewer's approval, found again by run, step, element of a
 * {@code for_each} step ({@code -1} for a call that is none), tool and params (as the store writes them, secrets
 * redacted). Callers hold the store's lock.
 */
final class ApprovalRows {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private final StoreDatabase db;

    ApprovalRows(StoreDatabase db) {
        this.db = db;
    }

    /** Records that the call waits for a decision (once: asking again changes nothing). */
    void request(String runId, int stepIndex, int seqNo, int element, String tool, String paramsJson) {
        db.update(
                "INSERT OR IGNORE INTO approvals (run_id, step_index, seq_no, element, tool, params_json, requested_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?)",
                runId,
                stepIndex,
                seqNo,
                element,
                tool,
                paramsJson,
                now());
    }

    /** The decision recorded for this call, if any. */
    Optional<Approvals.Decision> decision(String runId, int stepIndex, int element, String tool, String paramsJson) {
        return db
                .query(
                        "SELECT decision, reason FROM approvals WHERE run_id = ? AND step_index = ? AND element = ? "
                                + "AND tool = ? AND params_json = ? AND decision IS NOT NULL",
                        rs -> new Approvals.Decision("approved".equals(rs.getString(1)), rs.getString(2)),
                        runId,
                        stepIndex,
                        element,
                        tool,
                        paramsJson)
                .stream()
                .findFirst();
    }

    /** Decides the one call of the run that waits with this step, element, tool and params; whether it waited. */
    boolean decide(
            String runId, int stepIndex, int element, String tool, String paramsJson, boolean approved, String reason) {
        return db.update(
                        "UPDATE approvals SET decision = ?, reason = ?, decided_at = ? WHERE run_id = ? AND "
                                + "step_index = ? AND element = ? AND tool = ? AND params_json = ? AND decision IS NULL",
                        approved ? "approved" : "denied",
                        reason == null ? "" : reason,
                        now(),
                        runId,
                        stepIndex,
                        element,
                        tool,
                        paramsJson)
                > 0;
    }

    /**
     * Decides each of {@code calls} alike, in one transaction: all of them, or — when one no longer waits (another
     * reviewer decided it) — none; returns whether they were decided.
     *
     * @param json how the store writes a call's params (as {@link #request} was given them)
     */
    boolean decide(
            String runId,
            List<StoredApproval> calls,
            Function<JsonNode, String> json,
            boolean approved,
            String reason) {
        try {
            db.transaction(() -> {
                for (StoredApproval call : calls) {
                    if (!decide(
                            runId,
                            call.stepIndex(),
                            call.element(),
                            call.tool(),
                            json.apply(call.params()),
                            approved,
                            reason)) {
                        throw new Undecided();
                    }
                }
            });
            return true;
        } catch (Undecided none) {
            return false;
        }
    }

    /** Ends {@link #decide(String, List, Function, boolean, String)}'s transaction without deciding anything. */
    private static final class Undecided extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Undecided() {
            super(null, null, false, false);
        }
    }

    /** Every call of the run that needed approval, by step, then element, then the order they were asked. */
    List<StoredApproval> of(String runId) {
        return db.query(
                "SELECT step_index, seq_no, element, tool, params_json, requested_at, decision, reason, decided_at "
                        + "FROM approvals WHERE run_id = ? ORDER BY step_index, element, requested_at",
                rs -> new StoredApproval(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getInt(3),
                        rs.getString(4),
                        parse(rs.getString(5)),
                        rs.getString(6),
                        rs.getString(7),
                        rs.getString(8),
                        rs.getString(9)),
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
