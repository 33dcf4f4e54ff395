package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Schema;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.tools.JsonSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code validate} knows of a call's params before anything runs: params written out in full
 * (no {@code ${...}} in them) are checked against the params schema of the tool they go to, and
 * params with references at least name every property the schema requires. A call to a tool this
 * check does not know (an MCP server's, not started by {@code validate}) is not checked; a call with
 * {@code for_each} is checked per element at run time only.
 */
final class LiteralParams {

    private static final int MAX_PROBLEMS = 10;

    /** Params schema by tool name: configured tools, built-in tools, plan tools' {@code inputs}. */
    private final Map<String, JsonNode> schemas;

    private final Map<String, Schema> compiled = new HashMap<>();

    LiteralParams(Map<String, JsonNode> schemas) {
        this.schemas = Map.copyOf(schemas);
    }

    /** {@code result} with an error for every call whose params cannot fit its tool's schema. */
    LoadResult check(LoadResult result) {
        if (!result.valid()) {
            return result;
        }
        List<Diagnostic> diagnostics = new ArrayList<>(result.diagnostics());
        for (Instruction instruction : result.plan().instructions()) {
            if (instruction instanceof Calling calling && calling.forEach() == null) {
                JsonNode schema = schemas.get(calling.tool());
                if (schema != null) {
                    for (String problem : problems(calling.tool(), schema, calling.params())) {
                        diagnostics.add(Diagnostic.error(
                                calling.seqNo(),
                                calling.header().pointer() + "/parameters",
                                "params do not fit the schema of tool '" + calling.tool() + "': " + problem));
                    }
                }
            }
        }
        boolean refused = diagnostics.size() > result.diagnostics().size();
        return new LoadResult(result.source(), refused ? null : result.plan(), diagnostics);
    }

    private List<String> problems(String tool, JsonNode schema, ValueTemplate params) {
        if (params instanceof ValueTemplate.Constant constant) {
            Schema checked = compiled.computeIfAbsent(tool, name -> JsonSchemas.compile(schema));
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
