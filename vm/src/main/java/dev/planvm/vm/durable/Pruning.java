package dev.planvm.vm.durable;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Deletes old runs with their steps, approvals, waits and the values no remaining run uses. Callers hold the store's lock. */
final class Pruning {

    private final StoreDatabase db;
    private final ApprovalRows approvals;

    Pruning(StoreDatabase db, ApprovalRows approvals) {
        this.db = db;
        this.approvals = approvals;
    }

    /** See {@link RunStore#prune}. */
    int prune(Duration olderThan, Integer keep) {
        List<String[]> runs = db.query(
                "SELECT id, started_at, owner, lease_until FROM runs ORDER BY started_at DESC", rs -> new String[] {
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    rs.getObject(4) == null ? null : String.valueOf(rs.getLong(4))
                });
        Instant cutoff = olderThan == null ? null : Instant.now().minus(olderThan);
        int deleted = 0;
        for (int i = 0; i < runs.size(); i++) {
            String[] run = runs.get(i);
            boolean old = cutoff != null && Instant.parse(run[1]).isBefore(cutoff);
            boolean beyond = keep != null && i >= keep;
            boolean busy =
                    run[2] != null && RunOwnership.live(run[0], run[2], run[3] == null ? null : Long.parseLong(run[3]));
            if ((old || beyond) && !busy) {
                db.transaction(() -> {
                    db.update("DELETE FROM steps WHERE run_id = ?", run[0]);
                    approvals.delete(run[0]);
                    db.update("DELETE FROM waits WHERE run_id = ?", run[0]);
                    db.update("DELETE FROM element_calls WHERE run_id = ?", run[0]);
                    db.update("DELETE FROM blob_refs WHERE run_id = ?", run[0]);
                    db.update("DELETE FROM runs WHERE id = ?", run[0]);
                });
                deleted++;
            }
        }
        if (deleted > 0) {
            db.update("DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM blob_refs)");
            db.vacuum();
        }
        return deleted;
    }
}
