package dev.planvm.dialects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.internal.idyll.Reports;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a front end does around the run of an Idyll document ({@link Dialect#IDYLL}): the run's answer
 * is the execution report, {@code {"nodes": [{"id", "fn", "success", "data" | "error": {"message"},
 * "duration_ms"}...], "metadata": {"nodesExecuted", "nodesSucceeded", "nodesFailed",
 * "totalDuration_ms"}}}, which these methods complete and apply.
 */
public final class IdyllDocuments {

    private IdyllDocuments() {}

    /**
     * The report with each node's {@code duration_ms} filled in from the run's steps (the compiled plan
     * writes 0: it cannot read the clock), and the run's total.
     *
     * @param plan       the document's compiled plan, as it ran
     * @param stepMillis each executed step's time in milliseconds, by {@code seq_no}
     */
    public static JsonNode withDurations(JsonNode report, Plan plan, Map<Integer, Double> stepMillis, double total) {
        return Reports.withDurations(report, plan, stepMillis, total);
    }

    /**
     * {@link #withDurations} for a run kept in a run store, which may have run in several sessions (a
     * resume, an approval, an answer, a server's run): each block's time is that of its committed steps,
     * the total the sum of the steps' times (the time a run spent waiting between sessions is no block's).
     * An answer that is no document's report, or a plan that is no document's, comes back unchanged.
     *
     * @param plan  the run's plan as stored (StackVM JSON)
     * @param steps each committed step's trace entry, {@code {"seq_no", "duration_ms", ...}}
     */
    public static JsonNode withStepDurations(JsonNode report, JsonNode plan, List<JsonNode> steps) {
        if (report == null
                || !report.path("nodes").isArray()
                || !report.path("metadata").has("nodesExecuted")
                || plan == null) {
            return report;
        }
        LoadResult loaded = new PlanLoader().load(plan, "stored plan");
        if (!loaded.valid()) {
            return report;
        }
        Map<Integer, Double> stepMillis = new HashMap<>();
        double total = 0;
        for (JsonNode step : steps) {
            double millis = step.path("duration_ms").asDouble(0);
            stepMillis.merge(step.path("seq_no").asInt(), millis, Double::sum);
            total += millis;
        }
        return Reports.withDurations(report, loaded.plan(), stepMillis, total);
    }

    /** How many blocks failed, as the report says (0 for an answer that is no report). */
    public static int failedBlocks(JsonNode report) {
        return report.path("metadata").path("nodesFailed").asInt(0);
    }

    /**
     * The document's text with each reported block's {@code <result>} filled in (its data, or its
     * error), in a CDATA section; the rest of the text is unchanged.
     *
     * @throws IllegalArgumentException when {@code source} is no longer a valid document
     */
    public static String withResults(String source, JsonNode report) {
        return Reports.withResults(source, report, DialectLimits.DEFAULT.maxNesting());
    }
}
