package dev.planvm.vm.durable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The plan tools a run started with, kept by content: each plan tool's document (its source, its StackVM JSON,
 * a compiled dialect plan's source lines) is a blob ({@link Blobs}: stored once however many runs use it), and
 * the run's {@code plan_tools_json} lists their hashes. A resume, approval, answer or rerun of the run gets the
 * very plan tools it started with, whatever the plan-tool folders hold then. Used under {@link RunStore}'s lock.
 */
final class PlanToolRows {

    /**
     * One kept plan tool.
     *
     * @param source      where it was loaded from
     * @param document    its plan document (StackVM JSON)
     * @param sourceLines a compiled dialect plan's source line of each {@code seq_no}; empty for a JSON plan
     */
    record Kept(String source, JsonNode document, Map<Integer, Integer> sourceLines) {}

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private final StoreDatabase db;
    private final Blobs blobs;

    PlanToolRows(StoreDatabase db, Blobs blobs) {
        this.db = db;
        this.blobs = blobs;
    }

    /** Keeps {@code planTools} as run {@code runId}'s, counting what is newly written into its stored bytes. */
    void keep(String runId, List<Plan> planTools) {
        db.transaction(() -> {
            long[] bytes = {0};
            ArrayNode hashes = JsonNodeFactory.instance.arrayNode();
            for (Plan plan : planTools) {
                ObjectNode kept = JsonNodeFactory.instance.objectNode().put("source", plan.source());
                kept.set("plan", plan.document());
                if (!plan.sourceLines().isEmpty()) {
                    kept.set("source_lines", OptionsJson.writeLines(plan.sourceLines()));
                }
                hashes.add(blobs.put(kept, runId, bytes));
            }
            String json = Blobs.write(hashes);
            db.update(
                    "UPDATE runs SET plan_tools_json = ?, stored_bytes = stored_bytes + ? WHERE id = ?",
                    json,
                    bytes[0] + json.length(),
                    runId);
        });
    }

    /**
     * The plan tools run {@code runId} was kept with (none: it calls none), or {@code null} when nothing was kept
     * (a run stored before runs kept their plan tools).
     */
    List<Kept> of(String runId) {
        List<String> json = db.query("SELECT plan_tools_json FROM runs WHERE id = ?", rs -> rs.getString(1), runId);
        if (json.isEmpty() || json.get(0) == null) {
            return null;
        }
        JsonNode hashes;
        try {
            hashes = MAPPER.readTree(json.get(0));
        } catch (JsonProcessingException e) {
            throw new StoreException(
                    db.file() + ": run " + runId + " has malformed plan tools: " + e.getOriginalMessage());
        }
        List<Kept> kept = new ArrayList<>();
        for (JsonNode hash : hashes) {
            JsonNode tool = blobs.get(hash.asText());
            kept.add(new Kept(
                    tool.path("source").asText(), tool.path("plan"), OptionsJson.readLines(tool.get("source_lines"))));
        }
        return kept;
    }
}
