package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a front end does with a document's execution report after the run: fill in each node's
 * {@code duration_ms} from the run's step times (the plan cannot know them), and write a copy of the
 * document with each block's {@code <result>} filled in.
 */
public final class Reports {

    private static final Pattern NODE = Pattern.compile("idyll_(?:f(\\d+)_)?node_\\d+");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Reports() {}

    /**
     * The report with durations: a node's time is the time of the steps its block compiled to (a call
     * of a custom function: all of its steps), the total the run's.
     *
     * @param stepMillis each executed step's time by {@code seq_no}
     */
    public static JsonNode withDurations(JsonNode report, Plan plan, Map<Integer, Double> stepMillis, double total) {
        if (!report.isObject() || !report.path("nodes").isArray()) {
            return report;
        }
        ObjectNode copy = report.deepCopy();
        Map<String, List<Integer>> top = new LinkedHashMap<>();
        Map<Integer, Map<String, List<Integer>>> inner = new LinkedHashMap<>();
        for (Instruction instruction : plan.instructions()) {
            for (String written : instruction.writes()) {
                Matcher m = NODE.matcher(written);
                if (!m.matches()) {
                    continue;
                }
                if (m.group(1) == null) {
                    top.computeIfAbsent(written, k -> new ArrayList<>()).add(instruction.seqNo());
                } else {
                    inner.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new LinkedHashMap<>())
                            .computeIfAbsent(written, k -> new ArrayList<>())
                            .add(instruction.seqNo());
                }
            }
        }
        if (top.isEmpty()) { // no document's plan: its answer is an ordinary value
            return report;
        }
        List<double[]> ranges = ranges(top, -1);
        JsonNode nodes = copy.get("nodes");
        for (int i = 0; i < nodes.size() && i < ranges.size(); i++) {
            ObjectNode node = (ObjectNode) nodes.get(i);
            node.put("duration_ms", round(sum(stepMillis, ranges.get(i))));
            JsonNode data = node.path("data");
            String name = new ArrayList<>(top.keySet()).get(i);
            int k = Integer.parseInt(name.substring(name.lastIndexOf('_') + 1));
            if (data.isObject() && data.path("nodes").isArray() && inner.containsKey(k)) {
                List<double[]> innerRanges = ranges(inner.get(k), (int) ranges.get(i)[0]);
                JsonNode innerNodes = data.get("nodes");
                for (int j = 0; j < innerNodes.size() && j < innerRanges.size(); j++) {
                    ((ObjectNode) innerNodes.get(j)).put("duration_ms", round(sum(stepMillis, innerRanges.get(j))));
                }
                if (data.path("metadata").isObject()) {
                    ((ObjectNode) data.get("metadata"))
                            .put("duration_ms", node.get("duration_ms").asDouble());
                }
            }
        }
        if (copy.path("metadata").isObject()) {
            ((ObjectNode) copy.get("metadata")).put("totalDuration_ms", round(total));
        }
        return copy;
    }

    /** For each node variable, the {@code seq_no}s after the previous one's last and up to its own last. */
    private static List<double[]> ranges(Map<String, List<Integer>> bySeq, int start) {
        List<double[]> ranges = new ArrayList<>();
        int previous = start;
        List<Map.Entry<String, List<Integer>>> entries = new ArrayList<>(bySeq.entrySet());
        entries.sort(Comparator.comparingInt(e -> e.getValue().get(0)));
        for (Map.Entry<String, List<Integer>> e : entries) {
            int last = e.getValue().stream().mapToInt(Integer::intValue).max().orElse(previous);
            ranges.add(new double[] {previous, last});
            previous = last;
        }
        return ranges;
    }

    private static double sum(Map<Integer, Double> stepMillis, double[] range) {
        double sum = 0;
        for (Map.Entry<Integer, Double> step : stepMillis.entrySet()) {
            if (step.getKey() > range[0] && step.getKey() <= range[1]) {
                sum += step.getValue();
            }
        }
        return sum;
    }

    private static double round(double millis) {
        return Math.round(millis * 1000) / 1000.0;
    }

    /**
     * The document's text with each block of the report given its {@code <result>}: the block's data as
     * JSON, or {@code {"success": false, "error": {...}}}, in a CDATA section; an earlier {@code <result>}
     * is replaced, and nothing else of the text changes.
     *
     * @throws IllegalArgumentException when the source is not a document any more (its first problem)
     */
    public static String withResults(String source, JsonNode report, int maxDepth) {
        Problems problems = new Problems();
        XmlElement root = XmlReader.read(source, maxDepth, problems);
        Doc doc = root == null ? null : DocumentReader.read(root, problems);
        if (doc == null) {
            throw new IllegalArgumentException(problems.list().get(0).message());
        }
        Map<String, Doc.Block> byId = new LinkedHashMap<>();
        doc.blocks().forEach(b -> byId.put(b.id(), b));
        List<Edit> edits = new ArrayList<>();
        for (JsonNode node : report.path("nodes")) {
            Doc.Block block = byId.get(node.path("id").asText());
            if (block != null) {
                edits.add(edit(source, block.element(), result(node)));
            }
        }
        edits.sort(Comparator.comparingInt(Edit::from).reversed());
        StringBuilder out = new StringBuilder(source);
        for (Edit e : edits) {
            out.replace(e.from(), e.to(), e.text());
        }
        return out.toString();
    }

    private record Edit(int from, int to, String text) {}

    private static Edit edit(String source, XmlElement block, String result) {
        for (XmlElement child : block.elements()) {
            if (child.name.equals("result")) {
                return new Edit(child.start, child.end, result);
            }
        }
        if (block.empty()) {
            int slash = source.lastIndexOf("/>", block.startTagEnd);
            return new Edit(slash, block.startTagEnd, ">" + result + "</" + block.name + ">");
        }
        int lineStart = source.lastIndexOf('\n', block.endTagStart - 1) + 1;
        String before = source.substring(lineStart, block.endTagStart);
        if (before.isBlank()) {
            return new Edit(lineStart, lineStart, before + "  " + result + "\n");
        }
        return new Edit(block.endTagStart, block.endTagStart, result);
    }

    private static String result(JsonNode node) {
        JsonNode value;
        if (node.path("success").asBoolean()) {
            value = node.path("data");
        } else {
            ObjectNode failure = MAPPER.createObjectNode().put("success", false);
            failure.set("error", node.path("error"));
            value = failure;
        }
        try {
            String json = MAPPER.writeValueAsString(value);
            return "<result><![CDATA[" + json.replace("]]>", "]]]]><![CDATA[>") + "]]></result>";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
