package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Checks a tool's params against its JSON Schema before the call. Compiled schemas are cached per
 * tool instance, so the check costs one validation per call.
 */
public final class ParamsCheck {

    private final Map<Tool, Schema> compiled = new ConcurrentHashMap<>();

    /** Throws a non-retriable {@link ToolException} listing every violation. */
    public void check(Tool tool, JsonNode params) {
        Schema schema;
        try {
            schema = compiled.computeIfAbsent(tool, t -> JsonSchemas.compile(t.paramsSchema()));
        } catch (IllegalArgumentException unusable) { // a $ref cycle: no call can be checked
            throw ToolException.permanent(
                    "tool '" + tool.name() + "' has a params schema planvm cannot use: " + unusable.getMessage());
        }
        List<Error> errors;
        try {
            errors = JsonSchemas.errors(schema, params);
        } catch (IllegalArgumentException tooDeep) {
            throw ToolException.permanent(
                    "params do not fit the schema of tool '" + tool.name() + "': " + tooDeep.getMessage());
        }
        if (!errors.isEmpty()) {
            throw ToolException.permanent("params do not fit the schema of tool '" + tool.name() + "': "
                    + errors.stream().map(JsonSchemas::describe).collect(Collectors.joining("; ")));
        }
    }
}
