package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.vm.run.RunStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads one stored run back, with its steps and approvals. Callers hold the store's lock. */
final class RunReader {

    private final StoreDatabase db;
    private final Blobs blobs;
    private final ApprovalRows approvals;

    RunReader(StoreDatabase db, Blobs blobs, ApprovalRows approvals) {
        this.db = db;
        this.blobs = blobs;
        this.approvals = approvals;
    }

    /** The run whose id is {@code idOrPrefix} or starts with it (when exactly one does). */
    Optional<StoredRun> find(String idOrPrefix) {
        List<String> ids = db.query(
                "SELECT id FROM runs WHERE id = ? OR id LIKE ? ORDER BY id",
                rs -> rs.getString(1),
                idOrPrefix,
                idOrPrefix.replace("%", "").replace("_", "") + "%");
        if (ids.size() > 1 && !ids.contains(idOrPrefix)) {
            throw new StoreException("'" + idOrPrefix + "' names " + ids.size() + " runs: give more of the id");
        }
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        String id = ids.contains(idOrPrefix) ? idOrPrefix : ids.get(0);
        List<StoredStep> steps = db.query(
                "SELECT step_index, seq_no, type, outcome, next_position, writes_json, calls_json, "
                        + "trace_json, session, committed_at FROM steps WHERE run_id = ? ORDER BY step_index",
                rs -> {
                    JsonNode writes = blobs.internalize(StoreJson.parse(rs.getString(6)));
                    ObjectNode trace = (ObjectNode) StoreJson.parse(rs.getString(8));
                    trace.set("inputs", blobs.internalize(trace.path("inputs")));
                    if (!trace.has("writes")) {
                        trace.set("writes", writes);
                    }
                    return new StoredStep(
                            rs.getInt(1),
                            rs.getInt(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getInt(5),
                            writes,
                            CallsJson.read(StoreJson.parse(rs.getString(7)), rs.getInt(2)),
                            trace,
                            rs.getInt(9),
                            rs.getString(10));
                },
                id);
        List<StoredApproval> asked = approvals.of(id);
        return Optional.of(db.query(
                        "SELECT id, plan_source, plan_digest, plan_json, inputs_json, mode, status, parent_run, "
                                + "from_seq, started_at, finished_at, sessions, final_answer, error, options_json, clock_json, source_lines_json "
                                + "FROM runs WHERE id = ?",
                        rs -> new StoredRun(
                                rs.getString(1),
                                rs.getString(2),
                                rs.getString(3),
                                StoreJson.parse(rs.getString(4)),
                                inputs(StoreJson.parse(rs.getString(5))),
                                rs.getString(6),
                                RunStatus.ofLabel(rs.getString(7)),
                                rs.getString(8),
                                (Integer) rs.getObject(9),
                                rs.getString(10),
                                rs.getString(11),
                                rs.getInt(12),
                                StoreJson.parse(rs.getString(13)),
                                StoreJson.parse(rs.getString(14)),
                                steps,
                                OptionsJson.read(StoreJson.parse(rs.getString(15)))
                                        .withClock(RunClock.fromJson(StoreJson.parse(rs.getString(16)))
                                                .orElse(null)),
                                asked,
                                OptionsJson.readLines(StoreJson.parse(rs.getString(17)))),
                        id)
                .get(0));
    }

    /** See {@link RunStore#list(int, int, RunStatus)}. */
    List<RunSummary> list(int limit, int offset, RunStatus status) {
        return db.query(
                SUMMARY + (status == null ? "" : "WHERE r.status = '" + status.label() + "' ")
                        + "ORDER BY r.started_at DESC, r.id LIMIT ? OFFSET ?",
                RunReader::summary,
                limit,
                Math.max(0, offset));
    }

    /** See {@link RunStore#summary(String)}. */
    Optional<RunSummary> summary(String id) {
        return db.query(SUMMARY + "WHERE r.id = ?", RunReader::summary, id).stream()
                .findFirst();
    }

    private static final String SUMMARY = "SELECT r.id, r.plan_source, r.status, r.started_at, r.finished_at, "
            + "(SELECT COUNT(*) FROM steps s WHERE s.run_id = r.id), r.parent_run, r.owner, r.lease_until FROM runs r ";

    private static RunSummary summary(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new RunSummary(
                rs.getString(1),
                rs.getString(2),
                RunStatus.ofLabel(rs.getString(3)),
                rs.getString(4),
                rs.getString(5),
                rs.getInt(6),
                rs.getString(7),
                rs.getString(8) != null
                        && RunOwnership.live(
                                rs.getString(1), rs.getString(8), rs.getObject(9) == null ? null : rs.getLong(9)));
    }

    private static Map<String, JsonNode> inputs(JsonNode object) {
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        object.properties().forEach(e -> inputs.put(e.getKey(), e.getValue()));
        return inputs;
    }
}
