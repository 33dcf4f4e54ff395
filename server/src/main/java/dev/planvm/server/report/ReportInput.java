package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * What a report shows: a run's trace (the {@code planvm-trace/1} document, or one built from a stored run),
 * the plan it ran when known (for the flow graph; without it the graph has the steps the trace saw),
 * the run's lineage (a rerun's parents, oldest first) and, for a failed regression test, the differences
 * from its expectation.
 *
 * @param title   the page's heading
 * @param plan    the plan document, or {@code null}
 * @param trace   the trace document
 * @param lineage one line per run of the lineage (e.g. {@code 4f2a9c1e07b3 failed, rerun of ... from seq_no 3}); may be empty
 * @param diff    the differences from an expectation, one per line; may be empty
 * @param reach   what the plan could do before it ran ({@code planvm-reach/1}), or {@code null}
 */
public record ReportInput(
        String title, JsonNode plan, JsonNode trace, List<String> lineage, List<String> diff, JsonNode reach) {
    public ReportInput {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(trace, "trace");
        lineage = List.copyOf(lineage);
        diff = List.copyOf(diff);
    }

    /** A report without the plan's reach. */
    public ReportInput(String title, JsonNode plan, JsonNode trace, List<String> lineage, List<String> diff) {
        this(title, plan, trace, lineage, diff, null);
    }

    /**
     * This report with what the plan could do ({@code planvm-reach/1}, {@code Reach.toJson()}), shown beside what the
     * run did; {@code null}: none.
     */
    public ReportInput withReach(JsonNode value) {
        return new ReportInput(title, plan, trace, lineage, diff, value);
    }
}
