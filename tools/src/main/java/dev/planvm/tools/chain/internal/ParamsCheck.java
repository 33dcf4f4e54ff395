package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
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

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private final Map<Tool, Schema> compiled = new ConcurrentHashMap<>();

    /** Throws a non-retriable {@link ToolException} listing every violation. */
    public void check(Tool tool, JsonNode params) {
        Schema schema = compiled.computeIfAbsent(tool, t -> registry.getSchema(t.paramsSchema()));
        List<Error> errors = schema.validate(params);
        if (!errors.isEmpty()) {
            throw ToolException.permanent("params do not fit the schema of tool '" + tool.name() + "': "
                    + errors.stream().map(ParamsCheck::describe).collect(Collectors.joining("; ")));
        }
    }

    private static String describe(Error error) {
        String at = error.getInstanceLocation().toString();
        return (at.isEmpty() ? "" : at + " ") + error.getMessage();
    }
}
