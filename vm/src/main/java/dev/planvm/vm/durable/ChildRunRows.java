package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The lineage of plan-tool runs in the {@code runs} table: which run's call started a child run ({@code caller_run},
 * {@code caller_seq}, {@code caller_step}), the children of a run, and the child a caller continues or whose
 * unused answer it takes after a crash. Callers hold the store's lock.
 */
final class ChildRunRows {

    private final StoreDatabase db;
    private final StoreJson json;
    private final RunReader reader;

    ChildRunRows(StoreDatabase db, StoreJson json, RunReader reader) {
        this.db = db;
        this.json = json;
        this.reader = reader;
    }

    /** See {@link RunStore#unusedChild}. */
    Optional<String> unusedChild(
            String callerRun, int callerSeq, int committedSteps, Map<String, JsonNode> inputs, Set<String> taken) {
        String wanted = json.write(StoreJson.MAPPER.valueToTree(inputs)); // as stored: redacted, large values as blobs
        return db
                .query(
                        "SELECT id, inputs_json FROM runs WHERE caller_run = ? AND caller_seq = ? "
                                + "AND status = 'succeeded' AND caller_step > ? ORDER BY started_at, rowid",
                        rs -> Map.entry(rs.getString(1), rs.getString(2)),
                        callerRun,
                        callerSeq,
                        committedSteps)
                .stream()
                .filter(row -> !taken.contains(row.getKey()) && wanted.equals(row.getValue()))
                .map(Map.Entry::getKey)
                .findFirst();
    }

    /** The run whose plan-tool call started run {@code id} (its exact id), when it is a child run. */
    Optional<RunStore.Caller> caller(String id) {
        return db
                .query(
                        "SELECT caller_run, caller_seq FROM runs WHERE id = ? AND caller_run IS NOT NULL",
                        rs -> new RunStore.Caller(rs.getString(1), rs.getInt(2)),
                        id)
                .stream()
                .findFirst();
    }

    /** The child runs that calls of run {@code id} started, in the order they started. */
    List<RunStore.ChildRun> children(String id) {
        List<String[]> rows = db.query(
                "SELECT id, caller_seq FROM runs WHERE caller_run = ? ORDER BY started_at, rowid",
                rs -> new String[] {rs.getString(1), rs.getString(2)},
                id);
        List<RunStore.ChildRun> children = new ArrayList<>();
        for (String[] row : rows) {
            reader.summary(row[0])
                    .ifPresent(summary -> children.add(new RunStore.ChildRun(Integer.parseInt(row[1]), summary)));
        }
        return children;
    }

    /** See {@link RunStore#interruptedChild}. */
    Optional<String> interruptedChild(String callerRun, int callerSeq) {
        return db
                .query(
                        "SELECT id FROM runs WHERE caller_run = ? AND caller_seq = ? "
                                + "AND status IN ('running', 'waiting') "
                                + "ORDER BY started_at DESC, rowid DESC",
                        rs -> rs.getString(1),
                        callerRun,
                        callerSeq)
                .stream()
                .findFirst();
    }
}
