package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.server.internal.Html;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan as an SVG flow graph: one node per instruction, top to bottom in {@code seq_no} order;
 * sequential edges (falling through) straight down, jump edges curved on the right, data-dependency edges
 * (from the instruction that writes a variable to one that reads it through {@code ${}}) dashed on the left.
 * Sequential and jump edges carry how often the run took them. At most {@value #MAX_NODES} nodes and
 * {@value #MAX_DATA_EDGES} data edges are drawn.
 */
final class FlowGraph {

    static final int MAX_NODES = 400;
    static final int MAX_DATA_EDGES = 600;
    private static final int ROW = 56;
    private static final int TOP = 24;
    private static final int LEFT = 180;
    private static final int WIDTH = 300;
    private static final int HEIGHT = 34;

    /** One node: an instruction of the plan (or a seq_no the trace saw, when the plan is unknown). */
    private record Node(
            int seqNo,
            String type,
            String label,
            boolean fallsThrough,
            List<Integer> targets,
            List<String> writes,
            java.util.Set<String> reads) {}

    private FlowGraph() {}

    /** The {@code <svg id="flow-graph">} of {@code plan} (may be null) with the transitions the trace's steps took. */
    static String svg(JsonNode plan, JsonNode trace) {
        List<Node> nodes = nodes(plan, trace);
        Map<String, Integer> taken = transitions(trace);
        Map<Integer, String> outcome = outcomes(trace);
        int shown = Math.min(nodes.size(), MAX_NODES);
        Map<Integer, Integer> row = new HashMap<>();
        for (int i = 0; i < shown; i++) {
            row.put(nodes.get(i).seqNo(), i);
        }
        int height = TOP * 2 + shown * ROW;
        StringBuilder svg = new StringBuilder(4096);
        svg.append("<svg id=\"flow-graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"")
                .append(height)
                .append("\" viewBox=\"0 0 760 ")
                .append(height)
                .append("\" role=\"img\" aria-label=\"flow graph\">");
        svg.append(
                "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
                        + "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#555\"/></marker></defs>");
        int dataEdges = 0;
        for (int i = 0; i < shown; i++) {
            Node node = nodes.get(i);
            if (node.fallsThrough() && i + 1 < shown) {
                edge(svg, "seq", node.seqNo(), nodes.get(i + 1).seqNo(), i, i + 1, taken, 0);
            }
            int k = 0;
            for (int target : node.targets()) {
                Integer to = row.get(target);
                if (to != null) {
                    edge(svg, "jump", node.seqNo(), target, i, to, taken, k++);
                }
            }
            for (String variable : node.reads()) {
                for (int w = 0; w < shown && dataEdges < MAX_DATA_EDGES; w++) {
                    if (w != i && nodes.get(w).writes().contains(variable)) {
                        dataEdge(svg, nodes.get(w).seqNo(), node.seqNo(), w, i, variable, dataEdges++);
                    }
                }
            }
        }
        for (int i = 0; i < shown; i++) {
            node(svg, nodes.get(i), i, outcome.getOrDefault(nodes.get(i).seqNo(), "not-run"));
        }
        svg.append("</svg>");
        if (nodes.size() > shown) {
            svg.append("<p class=\"note\">")
                    .append(nodes.size() - shown)
                    .append(" more instructions are not drawn.</p>");
        }
        return svg.toString();
    }

    private static void node(StringBuilder svg, Node node, int row, String outcome) {
        int y = TOP + row * ROW;
        svg.append("<g class=\"node ")
                .append(outcome)
                .append("\" data-seq=\"")
                .append(node.seqNo())
                .append("\" tabindex=\"0\">")
                .append("<title>")
                .append(Html.escape("seq_no " + node.seqNo() + " (" + node.type() + "): " + outcome))
                .append("</title><rect x=\"")
                .append(LEFT)
                .append("\" y=\"")
                .append(y)
                .append("\" width=\"")
                .append(WIDTH)
                .append("\" height=\"")
                .append(HEIGHT)
                .append("\" rx=\"6\"/><text x=\"")
                .append(LEFT + 10)
                .append("\" y=\"")
                .append(y + 22)
                .append("\">")
                .append(Html.escape(Html.cut(node.seqNo() + " · " + node.label(), 44)))
                .append("</text></g>");
    }

    private static void edge(
            StringBuilder svg,
            String kind,
            int from,
            int to,
            int fromRow,
            int toRow,
            Map<String, Integer> taken,
            int k) {
        int count = taken.getOrDefault(from + ">" + to, 0);
        String path;
        int labelX;
        int labelY;
        if (kind.equals("seq")) {
            int x = LEFT + WIDTH / 2;
            int y1 = TOP + fromRow * ROW + HEIGHT;
            int y2 = TOP + toRow * ROW;
            path = "M" + x + "," + y1 + " L" + x + "," + y2;
            labelX = x + 6;
            labelY = (y1 + y2) / 2 + 4;
        } else {
            int x = LEFT + WIDTH;
            int y1 = TOP + fromRow * ROW + HEIGHT / 2;
            int y2 = TOP + toRow * ROW + HEIGHT / 2;
            int bend = x + 40 + Math.min(Math.abs(toRow - fromRow), 12) * 12 + k * 14;
            path = "M" + x + "," + y1 + " C" + bend + "," + y1 + " " + bend + "," + y2 + " " + (x + 2) + "," + y2;
            labelX = bend - 10;
            labelY = (y1 + y2) / 2;
        }
        svg.append("<g class=\"edge ")
                .append(kind)
                .append(count > 0 ? " taken" : "")
                .append("\" data-from=\"")
                .append(from)
                .append("\" data-to=\"")
                .append(to)
                .append("\" data-count=\"")
                .append(count)
                .append("\"><path d=\"")
                .append(path)
                .append("\" marker-end=\"url(#arrow)\"/>");
        if (count > 0) {
            svg.append("<text class=\"count\" x=\"")
                    .append(labelX)
                    .append("\" y=\"")
                    .append(labelY)
                    .append("\">×")
                    .append(count)
                    .append("</text>");
        }
        svg.append("</g>");
    }

    private static void dataEdge(StringBuilder svg, int from, int to, int fromRow, int toRow, String variable, int n) {
        int x = LEFT;
        int y1 = TOP + fromRow * ROW + HEIGHT / 2;
        int y2 = TOP + toRow * ROW + HEIGHT / 2;
        int bend = Math.max(8, x - 30 - Math.min(Math.abs(toRow - fromRow), 10) * 12 - (n % 4) * 6);
        svg.append("<g class=\"edge data\" data-from=\"")
                .append(from)
                .append("\" data-to=\"")
                .append(to)
                .append("\"><title>")
                .append(Html.escape(variable))
                .append("</title><path d=\"M")
                .append(x)
                .append(',')
                .append(y1)
                .append(" C")
                .append(bend)
                .append(',')
                .append(y1)
                .append(' ')
                .append(bend)
                .append(',')
                .append(y2)
                .append(' ')
                .append(x - 2)
                .append(',')
                .append(y2)
                .append("\" marker-end=\"url(#arrow)\"/><text class=\"var\" x=\"")
                .append(bend - 2)
                .append("\" y=\"")
                .append((y1 + y2) / 2)
                .append("\" text-anchor=\"end\">")
                .append(Html.escape(Html.cut(variable, 16)))
                .append("</text></g>");
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
        seen.forEach(
                (seq, type) -> nodes.add(new Node(seq, type, type, true, List.of(), List.of(), java.util.Set.of())));
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
