package dev.planvm.vm.internal.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.OutputVars;
import dev.planvm.instructions.expr.Interpolator;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.StepContext;
import dev.planvm.vm.run.StepFailure;
import java.util.List;
import java.util.Optional;

/**
 * DESIGN P9: calls the tool with the interpolated params and binds its output to
 * {@code output_vars} (see {@link OutputBinding}). When two or more names are expected, the tool
 * is told them, so an LLM tool can ask for JSON with those keys.
 */
final class CallingHandler implements InstructionHandler<Calling> {

    @Override
    public Outcome execute(Calling calling, StepContext step) {
        if (calling.forEach() != null) {
            return ForEachCalls.execute(calling, step);
        }
        Call.ToolCall call = call(calling, step.variables(), step.limits());
        step.recordInput("tool", TextNode.valueOf(calling.tool()));
        step.recordInput("params", call.params());
        JsonNode output;
        try {
            output = step.call(call);
        } catch (ToolException e) {
            throw new StepFailure("tool '" + calling.tool() + "' failed: " + e.getMessage(), e);
        }
        step.recordInput("output", output);
        OutputBinding.values(calling.tool(), calling.outputVars(), output).forEach(step::set);
        return Outcome.next();
    }

    @Override
    public Optional<Call> callFor(Calling calling, Variables variables, RunLimits limits) {
        if (calling.forEach() != null) {
            return Optional.empty(); // several calls: made at its turn, concurrently (ForEachCalls)
        }
        return Optional.of(call(calling, variables, limits));
    }

    /** The call: the interpolated params, held to the limits of one variable (a tool gets nothing larger). */
    static Call.ToolCall call(Calling calling, Variables variables, RunLimits limits) {
        JsonNode params = Interpolator.interpolate(calling.params(), variables, limits.maxStringLength());
        limits.checkValue("the tool_params value of tool '" + calling.tool() + "'", params);
        return new Call.ToolCall(
                calling.tool(),
                params,
                new CallContext(calling.seqNo(), expectedKeys(calling.outputVars())).withSlots(calling.slots()));
    }

    /** The keys the tool is told to put in a JSON object: the names of two or more output_vars, else none. */
    private static List<String> expectedKeys(OutputVars outputVars) {
        return outputVars instanceof OutputVars.Keys keys && keys.names().size() >= 2 ? keys.names() : List.of();
    }
}
