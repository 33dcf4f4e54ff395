package dev.planvm.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.tools.TokenCount;
import java.util.List;

/**
 * One answer of the planner: a first plan, a repair of an invalid one, or a re-plan after a failed
 * step.
 *
 * @param purpose      {@code plan}, {@code repair} or {@code replan}
 * @param format       how the answer was asked for
 * @param durationMs   how long the answer took
 * @param tokens       what the request spent
 * @param problems     the answer's errors (empty when it was a valid plan)
 * @param streamed     how many instructions arrived complete while the answer streamed (0 when not streamed)
 */
public record PlanRound(
        String purpose,
        AnswerFormat format,
        long durationMs,
        TokenCount tokens,
        List<Diagnostic> problems,
        int streamed) {

    public PlanRound {
        problems = List.copyOf(problems);
    }

    public boolean valid() {
        return problems.isEmpty();
    }

    /** {@code {"purpose", "format", "duration_ms", "tokens", "valid", "problems": ["seq_no 3 at /3/...: ..."], "streamed"}}. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("purpose", purpose).put("format", format.label()).put("duration_ms", durationMs);
        json.set("tokens", tokens.toJson());
        json.put("valid", valid());
        ArrayNode list = json.putArray("problems");
        problems.forEach(p -> list.add(p.format("plan")));
        json.put("streamed", streamed);
        return json;
    }
}
