package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.durable.StoredStep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A cassette of a stored run ({@code GET /v1/runs/{id}/cassette}): the calls its committed steps made and what
 * they answered, as the store keeps them (secrets redacted, values too large for the trace cut), with the run's
 * clock, so {@code planvm run --replay} runs the plan again without calling anything. A step that failed, or that
 * made more than one call, has no answer to keep and is left out.
 */
final class StoredCassette {

    private StoredCassette() {}

    static ObjectNode of(StoredRun run) {
        Map<Integer, Integer> ifTrue = new HashMap<>();
        if (run.plan() != null) {
            for (JsonNode instruction :
                    run.plan().isArray() ? run.plan() : run.plan().path("plan")) {
                JsonNode target = instruction.at("/parameters/jump_if_true");
                if (target.canConvertToInt()) {
                    ifTrue.put(instruction.path("seq_no").asInt(), target.asInt());
                }
            }
        }
        List<Interaction> interactions = new ArrayList<>();
        for (StoredStep step : run.steps()) {
            JsonNode trace = step.trace();
            if (step.calls().size() != 1 || trace.hasNonNull("error")) {
                continue;
            }
            long took = Math.round(trace.path("duration_ms").asDouble(0));
            Call call = step.calls().get(0);
            if (call instanceof Call.ToolCall tool && trace.at("/inputs").has("output")) {
                interactions.add(
                        new Interaction.ToolInteraction(tool.tool(), tool.params(), trace.at("/inputs/output"), took));
            } else if (call instanceof Call.ConditionCall condition
                    && trace.at("/jump/to").canConvertToInt()
                    && ifTrue.containsKey(step.seqNo())) {
                interactions.add(new Interaction.ConditionInteraction(
                        condition.prompt(),
                        condition.conditionContext(),
                        trace.at("/jump/to").asInt() == ifTrue.get(step.seqNo()),
                        trace.at("/jump/explanation").asText(""),
                        took));
            }
        }
        Cassette.RecordedClock clock = run.options().clock() == null
                ? null
                : new Cassette.RecordedClock(
                        run.options().clock().now(), run.options().clock().zone());
        return new Cassette(interactions, clock).toJson();
    }
}
