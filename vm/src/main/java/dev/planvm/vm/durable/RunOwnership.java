package dev.planvm.vm.durable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who works on a run: the process working on a run holds a lease on it ({@code owner}, {@code lease_until} of its
 * row), renewed while it works; {@link #claim} lets one process take over a run whose owner is gone (its lease ran
 * out, or it is a dead process of this host), atomically, so two resumes cannot both proceed. Callers hold the
 * store's lock.
 */
final class RunOwnership {

    /**
     * The runs this process works on now (created or claimed, until their session ends): a run this
     * process owns but no longer works on is not live, and two claims in one process exclude each other.
     */
    private static final Set<String> ACTIVE = ConcurrentHashMap.newKeySet();

    private final StoreDatabase db;
    private final Duration lease;

    RunOwnership(StoreDatabase db, Duration lease) {
        this.db = db;
        this.lease = lease;
    }

    /** This process works on run {@code id}, which it just created. */
    static void started(String id) {
        ACTIVE.add(id);
    }

    /** This process no longer works on run {@code id} (its session ended, or it was abandoned). */
    static void release(String id) {
        ACTIVE.remove(id);
    }

    /** When a lease taken now runs out, in epoch milliseconds. */
    long leaseUntil() {
        return System.currentTimeMillis() + lease.toMillis();
    }

    /** See {@link RunStore#claim}. */
    int claim(String id, boolean force) {
        Map<String, Object> row = db
                .query(
                        "SELECT owner, lease_until, owned_since, status FROM runs WHERE id = ?",
                        rs -> {
                            Map<String, Object> r = new LinkedHashMap<>();
                            r.put("owner", rs.getString(1));
                            r.put("lease", rs.getObject(2) == null ? null : rs.getLong(2));
                            r.put("since", rs.getString(3));
                            r.put("status", rs.getString(4));
                            return r;
                        },
                        id)
                .stream()
                .findFirst()
                .orElseThrow(() -> DurableRunException.noSuchRun("no run '" + id + "' in " + db.file()));
        String owner = (String) row.get("owner");
        Long leased = (Long) row.get("lease");
        boolean alive = owner != null && live(id, owner, leased);
        if ((alive && !force) || !ACTIVE.add(id)) { // reserved in this process before the conditional update
            throw ownedElsewhere(id, owner, (String) row.get("since"));
        }
        int claimed;
        try {
            claimed = db.update(
                    "UPDATE runs SET owner = ?, owned_since = ?, lease_until = ?, status = 'running', "
                            + "sessions = sessions + 1, finished_at = NULL, error = NULL "
                            + "WHERE id = ? AND owner IS ? AND lease_until IS ? "
                            + "AND status NOT IN ('succeeded', 'completed_with_failures')",
                    Owner.CURRENT.toString(),
                    StoreJson.now(),
                    leaseUntil(),
                    id,
                    owner,
                    leased);
        } catch (StoreException e) { // the store cannot be written now: the run stays free to claim later
            ACTIVE.remove(id);
            throw e;
        }
        if (claimed == 0) {
            ACTIVE.remove(id);
            String now = db.query(
                            "SELECT owner, owned_since FROM runs WHERE id = ?",
                            rs -> rs.getString(1) + "\n" + rs.getString(2),
                            id)
                    .get(0);
            throw ownedElsewhere(id, now.split("\n")[0], now.split("\n")[1]);
        }
        return db.query("SELECT sessions FROM runs WHERE id = ?", rs -> rs.getInt(1), id)
                .get(0);
    }

    private static DurableRunException ownedElsewhere(String id, String owner, String since) {
        Optional<Owner> who = Owner.parse(owner);
        return new DurableRunException("run " + id + " is running in process "
                + who.map(o -> String.valueOf(o.pid())).orElse(String.valueOf(owner)) + " on host "
                + who.map(Owner::host).orElse("?") + " since " + since
                + "; use --force after it died");
    }

    /** Extends this process's lease on run {@code id}. */
    void renew(String id) {
        db.update(
                "UPDATE runs SET lease_until = ? WHERE id = ? AND owner = ?",
                leaseUntil(),
                id,
                Owner.CURRENT.toString());
    }

    /** See {@link RunStore#interrupt}. */
    boolean interrupt(String id) {
        ACTIVE.remove(id);
        return db.update(
                        "UPDATE runs SET owner = NULL, lease_until = NULL WHERE id = ? AND owner = ? AND status = 'running'",
                        id,
                        Owner.CURRENT.toString())
                > 0;
    }

    /**
     * Whether {@code owner} still works on run {@code id}: this process when the run is one it works on
     * now; another process when its lease has not run out and it is not a dead process of this host.
     */
    static boolean live(String id, String owner, Long leaseUntil) {
        if (Owner.CURRENT.toString().equals(owner)) {
            return ACTIVE.contains(id);
        }
        if (leaseUntil == null || leaseUntil < System.currentTimeMillis()) {
            return false;
        }
        return Owner.parse(owner).map(o -> !o.knownDead()).orElse(false);
    }
}
