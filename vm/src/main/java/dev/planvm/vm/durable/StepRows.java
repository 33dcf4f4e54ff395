package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.call.Call;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's journal in the store: one row per committed step ({@code steps}) and per committed element of a
 * {@code for_each} step ({@code element_calls}), each written in its own transaction and counted against the
 * most one run may store ({@link RunStore.Settings#maxRunBytes()}). Callers hold the store's lock.
 */
final class StepRows {

    private final StoreDatabase db;
    private final Blobs blobs;
    private final StoreJson json;
    private final long maxRunBytes;

    StepRows(StoreDatabase db, Blobs blobs, StoreJson json, long maxRunBytes) {
        this.db = db;
        this.blobs = blobs;
        this.json = json;
        this.maxRunBytes = maxRunBytes;
    }

    /** See {@link RunStore#commitStep}. */
    void commitStep(String runId, StoredStep step) {
        db.transaction(() -> {
            long[] bytes = {0};
            ObjectNode writes = blobs.externalize((ObjectNode) json.redact(step.writes()), runId, bytes);
            ObjectNode trace = StoreJson.MAPPER.createObjectNode(); // the entry without its writes (own column)
            json.redact(step.trace()).properties().forEach(field -> {
                if (field.getKey().equals("inputs") && field.getValue() instanceof ObjectNode inputs) {
                    trace.set("inputs", blobs.externalize(inputs, runId, bytes));
                } else if (!field.getKey().equals("writes")) {
                    trace.set(field.getKey(), field.getValue());
                }
            });
            String writesJson = Blobs.write(writes);
            String callsJson = json.write(CallsJson.write(step.calls()));
            String traceJson = Blobs.write(trace);
            bytes[0] += writesJson.length() + callsJson.length() + traceJson.length();
            reserve(runId, bytes[0], "step " + step.index() + " (seq_no " + step.seqNo() + ")");
            db.update(
                    "INSERT INTO steps (run_id, step_index, seq_no, type, outcome, next_position, writes_json, calls_json, "
                            + "trace_json, session, committed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    runId,
                    step.index(),
                    step.seqNo(),
                    step.type(),
                    step.outcome(),
                    step.nextPosition(),
                    writesJson,
                    callsJson,
                    traceJson,
                    step.session(),
                    step.committedAt());
        });
    }

    /** See {@link RunStore#commitElement}. */
    void commitElement(String runId, int stepIndex, int seqNo, int position, Call call, JsonNode answer, int session) {
        db.transaction(() -> {
            String callJson = json.write(CallsJson.write(List.of(call)).get(0));
            String answerJson = json.write(answer);
            reserve(runId, callJson.length() + answerJson.length(), "element " + position + " of seq_no " + seqNo);
            db.update(
                    "INSERT OR IGNORE INTO element_calls (run_id, step_index, seq_no, position, call_json, answer_json, "
                            + "session, committed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    runId,
                    stepIndex,
                    seqNo,
                    position,
                    callJson,
                    answerJson,
                    session,
                    StoreJson.now());
        });
    }

    /**
     * Counts {@code bytes} more in run {@code runId}'s stored bytes, or refuses them with a {@link StoreException}
     * naming {@code what} would have passed the limit for one run (inside the caller's transaction: nothing is written).
     */
    private void reserve(String runId, long bytes, String what) {
        if (db.update(
                        "UPDATE runs SET stored_bytes = stored_bytes + ? WHERE id = ? AND stored_bytes + ? <= ?",
                        bytes,
                        runId,
                        bytes,
                        maxRunBytes)
                == 0) {
            Path file = db.file();
            throw new StoreException(file + ": run " + runId + " would store more than "
                    + StoreJson.mebibytes(maxRunBytes) + " with " + what
                    + ", the limit for one run (--max-store-bytes)");
        }
    }

    /** See {@link RunStore#committedElements}. */
    Map<Integer, JsonNode> committedElements(String runId, int stepIndex, int seqNo, List<Call> calls) {
        Map<Integer, JsonNode> answers = new LinkedHashMap<>();
        for (String[] row : db.query(
                "SELECT position, call_json, answer_json FROM element_calls WHERE run_id = ? AND step_index = ? "
                        + "AND seq_no = ? ORDER BY position",
                rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)},
                runId,
                stepIndex,
                seqNo)) {
            int position = Integer.parseInt(row[0]);
            if (position < calls.size()
                    && row[1].equals(json.write(
                            CallsJson.write(List.of(calls.get(position))).get(0)))) {
                answers.put(position, StoreJson.parse(row[2]));
            }
        }
        return answers;
    }

    /** See {@link RunStore#elements}. */
    List<StoredElement> elements(String id) {
        return db.query(
                "SELECT step_index, seq_no, position, call_json, session, committed_at FROM element_calls"
                        + " WHERE run_id = ? ORDER BY step_index, position",
                rs -> new StoredElement(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getInt(3),
                        StoreJson.parse(rs.getString(4)).path("tool").asText(),
                        rs.getInt(5),
                        rs.getString(6)),
                id);
    }
}
