package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.approval.InputRequest;
import dev.planvm.tools.approval.PersonTools;
import dev.planvm.tools.approval.SleepRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What is known of a call's params before anything runs: params written out in full (no {@code ${...}} in
 * them) are checked against the params schema of the tool they go to, and params with references at least name
 * every property the schema requires. A call with {@code for_each} is checked per element when it runs, and a call
 * with {@code on_error} when it is made: its handler takes a misfit as any other failure of the call. One
 * object per check of a plan (it keeps the schemas it compiled).
 */
final class LiteralParams {

    private static final int MAX_PROBLEMS = 10;

    private final Map<Tool, Schema> compiled = new HashMap<>();

    /** An error for each way {@code calling}'s params cannot fit {@code tool}'s params schema. */
    List<Diagnostic> check(Calling calling, Tool tool) {
        if (calling.forEach() != null || calling.onError() != null) {
            return List.of(); // an on_error handles the misfit as any failure of the call (an Idyll block's way)
        }
        Optional<ValueTemplate> params = slotsFitted(calling, tool);
        if (params.isEmpty()) {
            return List.of(); // a slot of several values for a one-value param: the preflight names it
        }
        List<Diagnostic> problems = new ArrayList<>();
        for (String problem : problems(tool, params.get())) {
            problems.add(Diagnostic.error(
                    calling.seqNo(),
                    calling.header().pointer() + "/parameters",
                    "params do not fit the schema of tool '" + calling.tool() + "': " + problem));
        }
        return problems;
    }

    /**
     * The params as the tool gets them: seed 000's slots ({@link Calling#slots()}) fitted to its schema as a call
     * fits them; empty for a slot of another number of values than its param takes, which is no misfit of the
     * params: the run's preflight names the slot and the schema ({@code Preflight.slotProblems}).
     */
    private static Optional<ValueTemplate> slotsFitted(Calling calling, Tool tool) {
        if (!calling.slots() || !(calling.params() instanceof ValueTemplate.Constant constant)) {
            return Optional.of(calling.params());
        }
        try {
            return Optional.of(new ValueTemplate.Constant(
                    JsonSchemas.fitSlots(calling.tool(), tool.paramsSchema(), constant.value())));
        } catch (ToolException slotOfManyValues) {
            return Optional.empty();
        }
    }

    private List<String> problems(Tool tool, ValueTemplate params) {
        JsonNode schema = tool.paramsSchema();
        if (params instanceof ValueTemplate.Constant constant && PersonTools.isBuiltIn(tool)) {
            try { // the built-ins say what is wrong better than their schema can
                if (tool.name().equals(InputRequest.TOOL)) {
                    InputRequest.of(constant.value());
                } else {
                    SleepRequest.of(constant.value());
                }
            } catch (ToolException wrong) {
                return List.of(wrong.getMessage());
            }
        }
        if (params instanceof ValueTemplate.Constant constant) {
            Schema checked;
            try {
                checked = compiled.computeIfAbsent(tool, t -> JsonSchemas.compile(schema));
            } catch (IllegalArgumentException unusable) { // a $ref cycle: every call fails, saying so
                return List.of();
            }
            return JsonSchemas.problems(checked, constant.value(), MAX_PROBLEMS);
        }
        if (params instanceof ValueTemplate.ObjectTemplate object) {
            List<String> missing = new ArrayList<>();
            for (JsonNode required : schema.path("required")) {
                if (required.isTextual() && !object.fields().containsKey(required.asText())) {
                    missing.add("required property '" + required.asText() + "' not found");
                }
            }
            return missing;
        }
        return List.of(); // a reference standing for the whole object: known at run time only
    }
}
