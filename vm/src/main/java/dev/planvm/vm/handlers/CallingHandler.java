package dev.planvm.vm.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.OutputVars;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.InstructionHandler;
import dev.planvm.vm.Outcome;
import dev.planvm.vm.StepContext;
import dev.planvm.vm.StepFailure;
import java.util.List;

/**
 * DESIGN P9: calls the tool with the interpolated params and binds its output to
 * {@code output_vars} (see {@link OutputBinding}). When two or more names are expected, the tool
 * is told them, so an LLM tool can ask for JSON with those keys.
 */
final class CallingHandler implements InstructionHandler<Calling> {

    @Override
    public Outcome execute(Calling calling, StepContext step) {
        JsonNode params = step.interpolate(calling.params());
        step.recordInput("tool", TextNode.valueOf(calling.tool()));
        step.recordInput("params", params);
        OutputVars outputVars = calling.outputVars();
        JsonNode output;
        try {
            output = step.callTool(calling.tool(), params, expectedKeys(outputVars));
        } catch (ToolException e) {
            throw new StepFailure("tool '" + calling.tool() + "' failed: " + e.getMessage(), e);
        }
        step.recordInput("output", output);
        OutputBinding.bind(calling.tool(), outputVars, output, step);
        return Outcome.next();
    }

    /** The keys the tool is told to put in a JSON object: the names of two or more output_vars, else none. */
    static List<String> expectedKeys(OutputVars outputVars) {
        return outputVars instanceof OutputVars.Keys keys && keys.names().size() >= 2 ? keys.names() : List.of();
    }
}
