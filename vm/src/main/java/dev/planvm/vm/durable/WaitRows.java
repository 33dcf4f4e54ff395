package dev.planvm.vm.durable;

import dev.planvm.tools.approval.InputRequest;
import dev.planvm.tools.approval.SleepRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The {@code waits} table: {@code human_input} calls (pending, or with their answer) and the wake times of
 * {@code sleep} calls, found again by run, step, tool and params (as the store writes them, secrets
 * redacted). Callers hold the store's lock.
 */
final class WaitRows {

    private final StoreDatabase db;

    WaitRows(StoreDatabase db) {
        this.db = db;
    }

    /** Records that the call waits for an answer (once: asking again changes nothing). */
    void requestInput(String runId, int stepIndex, int seqNo, String paramsJson) {
        db.update(
                "INSERT OR IGNORE INTO waits (run_id, step_index, seq_no, tool, params_json, requested_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                runId,
                stepIndex,
                seqNo,
                InputRequest.TOOL,
                paramsJson,
                now());
    }

    /** The answer (JSON) recorded for this call, if any. */
    Optional<String> answerOf(String runId, int stepIndex, String paramsJson) {
        return first(runId, stepIndex, InputRequest.TOOL, paramsJson);
    }

    /** Answers the run's pending input of step {@code stepIndex}; returns whether there was one. */
    boolean answer(String runId, int stepIndex, String answerJson) {
        return db.update(
                        "UPDATE waits SET answer_json = ?, answered_at = ? WHERE run_id = ? AND step_index = ? "
                                + "AND tool = ? AND answer_json IS NULL",
                        answerJson,
                        now(),
                        runId,
                        stepIndex,
                        InputRequest.TOOL)
                > 0;
    }

    /** The wake time kept for this sleep call; else keeps {@code planned} and returns it. */
    Instant wakeAt(String runId, int stepIndex, int seqNo, String paramsJson, Instant planned) {
        Optional<String> kept = first(runId, stepIndex, SleepRequest.TOOL, paramsJson);
        if (kept.isPresent()) {
            return Instant.parse(kept.get().replace("\"", ""));
        }
        String wake = "\"" + planned + "\"";
        db.update(
                "INSERT INTO waits (run_id, step_index, seq_no, tool, params_json, requested_at, answer_json, "
                        + "answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                runId,
                stepIndex,
                seqNo,
                SleepRequest.TOOL,
                paramsJson,
                now(),
                wake,
                now());
        return planned;
    }

    /** When the wake time of this sleep call was kept (the sleep started), if it was. */
    Optional<Instant> sleptSince(String runId, int stepIndex, String paramsJson) {
        return db
                .query(
                        "SELECT requested_at FROM waits WHERE run_id = ? AND step_index = ? AND tool = ? "
                                + "AND params_json = ?",
                        rs -> Instant.parse(rs.getString(1)),
                        runId,
                        stepIndex,
                        SleepRequest.TOOL,
                        paramsJson)
                .stream()
                .findFirst();
    }

    /** Every {@code human_input} call of the run, in the order they were asked. */
    List<StoredInput> inputs(String runId) {
        return db.query(
                "SELECT step_index, seq_no, tool, params_json, requested_at, answer_json, answered_at "
                        + "FROM waits WHERE run_id = ? AND tool = ? ORDER BY step_index, requested_at",
                rs -> new StoredInput(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getString(3),
                        RunStore.parse(rs.getString(4)),
                        rs.getString(5),
                        RunStore.parse(rs.getString(6)),
                        rs.getString(7)),
                runId,
                InputRequest.TOOL);
    }

    private Optional<String> first(String runId, int stepIndex, String tool, String paramsJson) {
        return db
                .query(
                        "SELECT answer_json FROM waits WHERE run_id = ? AND step_index = ? AND tool = ? "
                                + "AND params_json = ? AND answer_json IS NOT NULL",
                        rs -> rs.getString(1),
                        runId,
                        stepIndex,
                        tool,
                        paramsJson)
                .stream()
                .findFirst();
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
