package dev.planvm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Cassettes for corpus plans, recorded against instant stand-in tools (benchmarks replay them). */
final class StandIns {

    private StandIns() {}

    /** The plan's cassette, or {@code null} when the plan fails even with every tool answering. */
    static Cassette record(Plan plan) {
        Set<String> tools = new TreeSet<>();
        plan.instructions().forEach(i -> {
            if (i instanceof Calling c) {
                tools.add(c.tool());
            }
        });
        PlanVmBuilder builder = PlanVm.builder()
                .sequential(true)
                .tracing(false)
                .conditionEvaluator((prompt, context, call) -> new ConditionResult(false, "stand-in"));
        for (String tool : tools) {
            builder.tool(Tool.of(tool, "stand-in", (params, context) -> {
                if (context.expectedKeys().size() < 2) {
                    return TextNode.valueOf(tool + " answer for seq_no " + context.seqNo());
                }
                ObjectNode object = JsonNodeFactory.instance.objectNode();
                context.expectedKeys().forEach(k -> object.put(k, k + " from seq_no " + context.seqNo()));
                return object;
            }));
        }
        RunMode.Record record = RunMode.record();
        RunResult recorded = builder.build().run(plan, Map.of(), record);
        return recorded.succeeded() ? record.recording().cassette() : null;
    }
}
