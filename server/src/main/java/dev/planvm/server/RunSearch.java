package dev.planvm.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.vm.durable.RunSummary;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * A search of the run list ({@code GET /v1/runs?q=}): the runs whose id starts with the text or whose plan's
 * name contains it, ignoring case, among the {@value #MAX_SEARCHED} most recent (the store has no text index;
 * this bounds the work a request can ask for).
 */
final class RunSearch {

    static final int MAX_SEARCHED = 10_000;
    /** Runs read from the store at a time. */
    static final int BATCH = 200;

    private RunSearch() {}

    /**
     * A page of {@code size} matches after skipping {@code offset} of them, as {@link PlanService#list} answers.
     *
     * @param pages  the runs, most recent first, from an offset ({@value #BATCH} at a time)
     * @param state  the state a run must be in, or {@code null}
     * @param needle the text, lower case
     */
    static ObjectNode page(IntFunction<List<RunSummary>> pages, String state, String needle, int size, int offset) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        ArrayNode list = answer.putArray("runs");
        int skipped = 0;
        boolean more = false;
        scan:
        for (int from = 0; from < MAX_SEARCHED; from += BATCH) {
            List<RunSummary> page = pages.apply(from);
            for (RunSummary run : page) {
                if (!matches(run, state, needle)) {
                    continue;
                }
                if (skipped < offset) {
                    skipped++;
                } else if (list.size() < size) {
                    list.add(RunDocuments.summary(run));
                } else {
                    more = true;
                    break scan;
                }
            }
            if (page.size() < BATCH) {
                break;
            }
        }
        answer.put("limit", size).put("offset", offset);
        if (more) {
            answer.put("next_offset", offset + size);
        } else {
            answer.putNull("next_offset");
        }
        return answer;
    }

    private static boolean matches(RunSummary run, String state, String needle) {
        return (state == null || run.state().equals(state))
                && (run.id().toLowerCase(Locale.ROOT).startsWith(needle)
                        || String.valueOf(run.planSource())
                                .toLowerCase(Locale.ROOT)
                                .contains(needle));
    }
}
