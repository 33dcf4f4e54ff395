package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/** The instructions of one plan as they are emitted: numbered from 0, each knowing its source line. */
final class Instructions {

    private final ArrayNode plan = JsonNodeFactory.instance.arrayNode();
    private final Map<Integer, Integer> lines = new LinkedHashMap<>();

    /** The {@code seq_no} the next instruction gets. */
    int next() {
        return plan.size();
    }

    int size() {
        return plan.size();
    }

    /** Adds an instruction and returns its (empty) {@code parameters}. */
    ObjectNode add(String type, int line, String objective) {
        ObjectNode instruction = plan.addObject();
        int seq = plan.size() - 1;
        instruction.put("seq_no", seq);
        instruction.put("type", type);
        instruction.put("execution_objective", Text.literal(objective));
        lines.put(seq, line);
        return instruction.putObject("parameters");
    }

    ArrayNode plan() {
        return plan;
    }

    Map<Integer, Integer> lines() {
        return lines;
    }
}
