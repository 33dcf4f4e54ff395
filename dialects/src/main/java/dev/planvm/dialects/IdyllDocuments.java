package dev.planvm.dialects;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.internal.idyll.Reports;
import dev.planvm.instructions.Plan;
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
