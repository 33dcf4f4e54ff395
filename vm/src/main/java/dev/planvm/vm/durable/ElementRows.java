package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The element rows a stored run's document gives a {@code for_each} step ({@code planvm show}, {@code GET
 * /v1/runs/{id}}, MCP {@code get_run}): one per element, in list order, with its
 * state — {@code committed} (its answer was committed on its own, so a resume does not call it again), {@code
 * failed} (the error says why; its {@code on_error} value stood in or its jump was taken), {@code answered} (answered within the step's
 * own commit) or {@code pending} (a map the run stopped in the middle of: not answered yet, a resume calls it) —
 * the tool, and when and in which session a committed element was committed. At most {@code max} rows per step;
 * {@code elements_more} counts the rest.
 */
public final class ElementRows {

    /** The rows shown per step unless {@code --max-elements} says otherwise. */
    public static final int DEFAULT_MAX = 50;

    private ElementRows() {}

    /**
     * Adds {@code elements} to every entry of {@code steps} (trace entries with their {@code step} index) that maps
     * over a list; the committed elements of a map whose step is not committed (the run stopped in it) are put in
     * {@code document} as {@code unfinished_map}.
     */
    public static void add(ObjectNode document, ArrayNode steps, List<StoredElement> stored, int max) {
        Map<Integer, List<StoredElement>> byStep = stored.stream()
                .collect(Collectors.groupingBy(StoredElement::stepIndex, TreeMap::new, Collectors.toList()));
        Set<Integer> committedSteps = new HashSet<>();
        for (JsonNode entry : steps) {
            committedSteps.add(entry.path("step").asInt());
            JsonNode inputs = entry.path("inputs");
            if (inputs.has("for_each")) {
                rows(
                        (ObjectNode) entry,
                        inputs,
                        byStep.getOrDefault(entry.path("step").asInt(), List.of()),
                        max);
            }
        }
        byStep.forEach((stepIndex, elements) -> {
            if (!committedSteps.contains(stepIndex)) {
                ObjectNode unfinished = document.putObject("unfinished_map")
                        .put("step", stepIndex)
                        .put("seq_no", elements.get(0).seqNo())
                        .put("committed_elements", elements.size());
                int last = elements.get(elements.size() - 1).position();
                Map<Integer, StoredElement> byPosition = new HashMap<>();
                elements.forEach(e -> byPosition.put(e.position(), e));
                ArrayNode rows = unfinished.putArray("elements");
                for (int i = 0; i <= last && i < max; i++) {
                    StoredElement element = byPosition.get(i);
                    ObjectNode row = rows.addObject().put("index", i);
                    if (element == null) {
                        row.put("state", "pending");
                    } else {
                        committed(row, element);
                    }
                }
                if (last + 1 > max) {
                    unfinished.put("elements_more", last + 1 - max);
                }
            }
        });
    }

    /** The rows of a committed step that mapped over its list. */
    private static void rows(ObjectNode entry, JsonNode inputs, List<StoredElement> committed, int max) {
        int count = inputs.path("params").isArray()
                ? inputs.path("params").size()
                : inputs.path("for_each").size();
        Map<Integer, StoredElement> byPosition = new HashMap<>();
        committed.forEach(e -> byPosition.put(e.position(), e));
        Map<Integer, JsonNode> errors = new LinkedHashMap<>();
        inputs.path("element_errors")
                .forEach(error -> errors.put(error.path("index").asInt(), error));
        Set<Integer> handled = new HashSet<>(); // a trace from before element_errors lists only the positions
        inputs.path("handled_elements").forEach(index -> handled.add(index.asInt()));
        String tool = inputs.path("tool").asText(null);
        ArrayNode rows = entry.putArray("elements");
        for (int i = 0; i < Math.min(count, max); i++) {
            ObjectNode row = rows.addObject().put("index", i);
            StoredElement element = byPosition.get(i);
            if (element != null) {
                committed(row, element);
            } else if (errors.containsKey(i)) {
                row.put("state", "failed").put("tool", tool);
                JsonNode error = errors.get(i);
                row.putObject("error")
                        .put("kind", error.path("kind").asText())
                        .put("message", error.path("message").asText());
            } else if (handled.contains(i)) {
                row.put("state", "failed").put("tool", tool);
            } else {
                row.put("state", "answered").put("tool", tool);
            }
        }
        if (count > max) {
            entry.put("elements_more", count - max);
        }
    }

    private static void committed(ObjectNode row, StoredElement element) {
        row.put("state", "committed")
                .put("tool", element.tool())
                .put("session", element.session())
                .put("committed", element.committedAt());
    }
}
