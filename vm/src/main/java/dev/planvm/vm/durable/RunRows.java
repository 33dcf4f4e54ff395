package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.approval.SleepRequired;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code runs} table's life of a run: its row written when it is created (plan, inputs, options, clock, its
 * caller when it is a child run), how each session ended, a waiting run cancelled, and the wake times of the runs
 * that sleep. Callers hold the store's lock.
 */
final class RunRows {

    private final StoreDatabase db;
    private final StoreJson json;
    private final RunOwnership ownership;

    RunRows(StoreDatabase db, StoreJson json, RunOwnership ownership) {
        this.db = db;
        this.json = json;
        this.ownership = ownership;
    }

    /**
     * Records a new run (status {@code running}, owned by this process) and returns its id; a child run when
     * {@code callerRun} is given ({@link RunStore#createChildRun}).
     */
    String create(
            Plan plan,
            Map<String, JsonNode> inputs,
            String mode,
            String parentRun,
            Integer fromSeq,
            RunOptions options,
            String callerRun,
            Integer callerSeq,
            Integer callerStep) {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String planJson = json.write(plan.document());
        String inputsJson = json.write(StoreJson.MAPPER.valueToTree(inputs));
        String optionsJson = Blobs.write(OptionsJson.write(options));
        String clockJson =
                options.clock() == null ? null : Blobs.write(options.clock().toJson());
        String linesJson =
                plan.sourceLines().isEmpty() ? null : Blobs.write(OptionsJson.writeLines(plan.sourceLines()));
        db.update(
                "INSERT INTO runs (id, plan_source, plan_digest, plan_json, inputs_json, mode, status, parent_run, from_seq, "
                        + "started_at, sessions, owner, owned_since, lease_until, stored_bytes, options_json, clock_json, "
                        + "source_lines_json, caller_run, caller_seq, caller_step) "
                        + "VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                id,
                plan.source(),
                plan.digest(),
                planJson,
                inputsJson,
                mode,
                parentRun,
                fromSeq,
                StoreJson.now(),
                Owner.CURRENT.toString(),
                StoreJson.now(),
                ownership.leaseUntil(),
                planJson.length() + inputsJson.length(),
                optionsJson,
                clockJson,
                linesJson,
                callerRun,
                callerSeq,
                callerStep);
        RunOwnership.started(id);
        return id;
    }

    /** Stores {@code clock} as run {@code id}'s clock when it has none (a run stored by an earlier version). */
    void keepClock(String id, RunClock clock) {
        db.update(
                "UPDATE runs SET clock_json = ? WHERE id = ? AND clock_json IS NULL", Blobs.write(clock.toJson()), id);
    }

    /** See {@link RunStore#finishRun}. */
    void finish(String runId, RunResult result) {
        RunError error = result.error();
        ObjectNode errorJson = null;
        if (error != null) {
            errorJson = StoreJson.MAPPER.createObjectNode();
            errorJson.put("seq_no", error.seqNo()).put("type", error.type()).put("message", error.message());
            if (error.line() != null) {
                errorJson.put("line", error.line());
            }
        }
        Instant wake = result.status() == RunStatus.WAITING ? wakeOf(error) : null;
        try {
            db.update(
                    "UPDATE runs SET status = ?, finished_at = ?, final_answer = ?, error = ?, owner = NULL, "
                            + "lease_until = NULL, wake_at = ? WHERE id = ?",
                    // an interrupted run is kept as running with no owner: any process may resume it
                    (result.interrupted() ? RunStatus.RUNNING : result.status()).label(),
                    result.completed() || result.status() == RunStatus.FAILED ? StoreJson.now() : null,
                    json.write(result.finalAnswer()),
                    errorJson == null ? null : json.write(errorJson),
                    wake == null ? null : wake.toString(),
                    runId);
        } finally { // unrecorded, the run is interrupted: this process no longer works on it, any may resume it
            RunOwnership.release(runId);
        }
    }

    /** The wake time of a run that stopped at its own sleep ({@link SleepRequired} is its error's cause), or null. */
    private static Instant wakeOf(RunError error) {
        return error != null && error.cause() instanceof SleepRequired sleep ? sleep.wakeAt() : null;
    }

    /** See {@link RunStore#sleeping()}. */
    List<RunStore.Sleeping> sleeping() {
        return db.query(
                "SELECT id, wake_at FROM runs WHERE status = 'waiting' AND wake_at IS NOT NULL ORDER BY wake_at",
                rs -> new RunStore.Sleeping(rs.getString(1), Instant.parse(rs.getString(2))));
    }

    /** See {@link RunStore#wakeAt(String)}. */
    Optional<Instant> wakeAt(String id) {
        return db
                .query(
                        "SELECT wake_at FROM runs WHERE id = ? AND status = 'waiting' AND wake_at IS NOT NULL",
                        rs -> Instant.parse(rs.getString(1)),
                        id)
                .stream()
                .findFirst();
    }

    /** Fails a run that waits (for approval, input or its timer), with {@code message}; false when it does not wait. */
    boolean cancelWaiting(String id, String message) {
        ObjectNode error = StoreJson.MAPPER.createObjectNode();
        error.putNull("seq_no").putNull("type");
        error.put("message", message);
        return db.update(
                        "UPDATE runs SET status = 'failed', finished_at = ?, error = ?, wake_at = NULL WHERE id = ?"
                                + " AND status = 'waiting'",
                        StoreJson.now(),
                        json.write(error),
                        id)
                > 0;
    }
}
