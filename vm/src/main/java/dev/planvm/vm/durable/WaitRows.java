package dev.planvm.vm.durable;

import dev.planvm.tools.approval.InputRequest;
import dev.planvm.tools.approval.SleepRequest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * The {@code waits} table: {@code human_input} calls (pending, or with their answer) and the wake times of
 * {@code sleep} calls, found again by run, step, element of a {@code for_each} step ({@code -1} for a call that is
 * none), tool and params (as the store writes them, secrets redacted): each element of a map asks its own question
 * and keeps its own wake time. Callers hold the store's lock.
 */
final class WaitRows {

    private final StoreDatabase db;

    WaitRows(StoreDatabase db) {
        this.db = db;
    }

    /** Records that the call waits for an answer (once: asking again changes nothing). */
    void requestInput(String runId, int stepIndex, int seqNo, int element, String paramsJson) {
        db.update(
                "INSERT OR IGNORE INTO waits (run_id, step_index, seq_no, element, tool, params_json, requested_at) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?)",
                runId,
                stepIndex,
                seqNo,
                element,
                InputRequest.TOOL,
                paramsJson,
                now());
    }

    /** The answer (JSON) recorded for this call, if any. */
    Optional<String> answerOf(String runId, int stepIndex, int element, String paramsJson) {
        return first(runId, stepIndex, element, InputRequest.TOOL, paramsJson);
    }

    /** Answers the run's pending input of step {@code stepIndex} and {@code element}; returns whether there was one. */
    boolean answer(String runId, int stepIndex, int element, String answerJson) {
        return db.update(
                        "UPDATE waits SET answer_json = ?, answered_at = ? WHERE run_id = ? AND step_index = ? "
                                + "AND element = ? AND tool = ? AND answer_json IS NULL",
                        answerJson,
                        now(),
                        runId,
                        stepIndex,
                        element,
                        InputRequest.TOOL)
                > 0;
    }

    /** The wake time kept for this sleep call (its step and element); else keeps {@code planned} and returns it. */
    Instant wakeAt(String runId, int stepIndex, int seqNo, int element, String paramsJson, Instant planned) {
        Optional<String> kept = first(runId, stepIndex, element, SleepRequest.TOOL, paramsJson);
        if (kept.isPresent()) {
            return Instant.parse(kept.get().replace("\"", ""));
        }
        String wake = "\"" + planned + "\"";
        db.update(
                "INSERT INTO waits (run_id, step_index, seq_no, element, tool, params_json, requested_at, answer_json, "
                        + "answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                runId,
                stepIndex,
                seqNo,
                element,
                SleepRequest.TOOL,
                paramsJson,
                now(),
                wake,
                now());
        return planned;
    }

    /** The wake times kept for the {@code sleep} calls of the run, by step and element. */
    List<StoredWake> wakes(String runId) {
        return db.query(
                "SELECT step_index, seq_no, element, answer_json FROM waits WHERE run_id = ? AND tool = ? "
                        + "ORDER BY step_index, element",
                rs -> new StoredWake(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getInt(3),
                        Instant.parse(rs.getString(4).replace("\"", ""))),
                runId,
                SleepRequest.TOOL);
    }

    /** When the wake time of this sleep call (its step and element) was kept (the sleep started), if it was. */
    Optional<Instant> sleptSince(String runId, int stepIndex, int element) {
        return db
                .query(
                        "SELECT requested_at FROM waits WHERE run_id = ? AND step_index = ? AND element = ? AND tool = ?",
                        rs -> Instant.parse(rs.getString(1)),
                        runId,
                        stepIndex,
                        element,
                        SleepRequest.TOOL)
                .stream()
                .findFirst();
    }

    /** Every {@code human_input} call of the run, by step, then element, then the order they were asked. */
    List<StoredInput> inputs(String runId) {
        return db.query(
                "SELECT step_index, seq_no, element, tool, params_json, requested_at, answer_json, answered_at "
                        + "FROM waits WHERE run_id = ? AND tool = ? ORDER BY step_index, element, requested_at",
                rs -> new StoredInput(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getInt(3),
                        rs.getString(4),
                        StoreJson.parse(rs.getString(5)),
                        rs.getString(6),
                        StoreJson.parse(rs.getString(7)),
                        rs.getString(8)),
                runId,
                InputRequest.TOOL);
    }

    /** The {@code human_input} calls of the run not answered at the step it is at (its committed steps + 1). */
    List<StoredInput> pendingInputs(String runId) {
        int step = db.query("SELECT COUNT(*) FROM steps WHERE run_id = ?", rs -> rs.getInt(1), runId)
                        .get(0)
                + 1;
        return inputs(runId).stream()
                .filter(input -> input.pending() && input.stepIndex() == step)
                .toList();
    }

    private Optional<String> first(String runId, int stepIndex, int element, String tool, String paramsJson) {
        return db
                .query(
                        "SELECT answer_json FROM waits WHERE run_id = ? AND step_index = ? AND element = ? AND tool = ? "
                                + "AND params_json = ? AND answer_json IS NOT NULL",
                        rs -> rs.getString(1),
                        runId,
                        stepIndex,
                        element,
                        tool,
                        paramsJson)
                .stream()
                .findFirst();
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
