package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The plan as a flow graph, as data the report's renderer ({@code report.js}) draws: one node per instruction
 * in {@code seq_no} order with what became of it in the run ({@code ran}, {@code failed}, {@code waiting},
 * {@code not-run}); sequential edges (falling through) and jump edges with how often the run took them; data
 * edges from the instruction that writes a variable to one that reads it through {@code ${}}. At most
 * {@value #MAX_NODES} nodes and {@value #MAX_DATA_EDGES} data edges.
 *
 * <pre>{@code
 * {"nodes": [{"seq": 0, "type": "calling", "label": "calling vector_search", "outcome": "ran"}],
 *  "edges": [{"kind": "seq" | "jump" | "data", "from": 0, "to": 1, "count": 1, "variable": "v"}],
 *  "more_nodes": 0}
 * }</pre>
 */
final class FlowGraph {

    static final int MAX_NODES = 400;
    static final int MAX_DATA_EDGES = 600;

    /** One node: an instruction of the plan (or a seq_no the trace saw, when the plan is unknown). */
    private record Node(
            int seqNo,
            String type,
            String label,
            boolean fallsThrough,
            List<Integer> targets,
            List<String> writes,
            Set<String> reads) {}

    private FlowGraph() {}

    /** The graph of {@code plan} (may be null) with the transitions the trace's steps took. */
    static ObjectNode of(JsonNode plan, JsonNode trace) {
        List<Node> nodes = nodes(plan, trace);
        Map<String, Integer> taken = transitions(trace);
        Map<Integer, String> outcome = outcomes(trace);
        int shown = Math.min(nodes.size(), MAX_NODES);
        Map<Integer, Integer> row = new HashMap<>();
        for (int i = 0; i < shown; i++) {
            row.put(nodes.get(i).seqNo(), i);
        }
        ObjectNode graph = JsonNodeFactory.instance.objectNode();
        ArrayNode nodeList = graph.putArray("nodes");
        ArrayNode edges = graph.putArray("edges");
        int dataEdges = 0;
        for (int i = 0; i < shown; i++) {
            Node node = nodes.get(i);
            nodeList.addObject()
                    .put("seq", node.seqNo())
                    .put("type", node.type())
                    .put("label", node.label())
                    .put("outcome", outcome.getOrDefault(node.seqNo(), "not-run"));
            if (node.fallsThrough() && i + 1 < shown) {
                edge(edges, "seq", node.seqNo(), nodes.get(i + 1).seqNo(), taken);
            }
            for (int target : node.targets()) {
                if (row.containsKey(target)) {
                    edge(edges, "jump", node.seqNo(), target, taken);
                }
            }
            for (String variable : node.reads()) {
                for (int w = 0; w < shown && dataEdges < MAX_DATA_EDGES; w++) {
                    if (w != i && nodes.get(w).writes().contains(variable)) {
                        edges.addObject()
                                .put("kind", "data")
                                .put("from", nodes.get(w).seqNo())
                                .put("to", node.seqNo())
                                .put("variable", variable);
                        dataEdges++;
                    }
                }
            }
        }
        graph.put("more_nodes", nodes.size() - shown);
        return graph;
    }

    private static void edge(ArrayNode edges, String kind, int from, int to, Map<String, Integer> taken) {
        edges.addObject()
                .put("kind", kind)
                .put("from", from)
                .put("to", to)
                .put("count", taken.getOrDefault(from + ">" + to, 0));
    }

    private static List<Node> nodes(JsonNode plan, JsonNode trace) {
        if (plan != null && !plan.isNull()) {
            LoadResult loaded = new PlanLoader().load(plan, "report");
            if (loaded.valid()) {
                return nodes(loaded.plan());
            }
        }
        Map<Integer, String> seen = new TreeMap<>();
        trace.path("steps")
                .forEach(step -> seen.putIfAbsent(
                        step.path("seq_no").asInt(), step.path("type").asText()));
        List<Node> nodes = new ArrayList<>();
        seen.forEach((seq, type) -> nodes.add(new Node(seq, type, type, true, List.of(), List.of(), Set.of())));
        return nodes;
    }

    private static List<Node> nodes(Plan plan) {
        List<Node> nodes = new ArrayList<>();
        for (Instruction instruction : plan.instructions()) {
            nodes.add(new Node(
                    instruction.seqNo(),
                    instruction.type(),
                    label(instruction),
                    instruction.mayFallThrough(),
                    instruction.jumpTargets(),
                    instruction.writes(),
                    instruction.reads()));
        }
        return nodes;
    }

    private static String label(Instruction instruction) {
        if (instruction instanceof Calling calling) {
            return "calling " + calling.tool();
        }
        if (instruction instanceof Assign) {
            return "assign " + String.join(", ", instruction.writes());
        }
        if (instruction instanceof Jmp jmp) {
            return "jmp"
                    + (jmp.branch() instanceof Jmp.Unconditional
                            ? ""
                            : jmp.branch() instanceof Jmp.LlmCondition ? " (LLM condition)" : " (condition)");
        }
        return instruction.type();
    }

    /** How often the run went from one seq_no to another: {@code "a>b"} to a count. */
    private static Map<String, Integer> transitions(JsonNode trace) {
        Map<String, Integer> taken = new HashMap<>();
        JsonNode steps = trace.path("steps");
        for (int i = 0; i + 1 < steps.size(); i++) {
            taken.merge(
                    steps.get(i).path("seq_no").asInt() + ">"
                            + steps.get(i + 1).path("seq_no").asInt(),
                    1,
                    Integer::sum);
        }
        return taken;
    }

    /** Per seq_no: {@code failed} when a run of it failed, {@code waiting} for the pending call, else {@code ran}. */
    private static Map<Integer, String> outcomes(JsonNode trace) {
        Map<Integer, String> outcome = new LinkedHashMap<>();
        trace.path("steps")
                .forEach(step -> outcome.merge(
                        step.path("seq_no").asInt(),
                        step.hasNonNull("error") ? "failed" : "ran",
                        (a, b) -> a.equals("failed") ? a : b));
        if (trace.hasNonNull("pending")) {
            outcome.put(trace.path("pending").path("seq_no").asInt(), "waiting");
        }
        JsonNode error = trace.path("error");
        if (error.hasNonNull("seq_no")
                && !outcome.containsKey(error.path("seq_no").asInt())) {
            outcome.put(error.path("seq_no").asInt(), "failed");
        }
        return outcome;
    }
}
