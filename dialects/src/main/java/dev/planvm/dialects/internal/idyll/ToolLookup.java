package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which tool a block's function is, and what of the block it takes: the run's tools by name (null: not
 * known, then every name is taken for a tool and the run finds out). {@code demo:echo} is the tool
 * {@code demo:echo} (the tool {@code echo} of the MCP server {@code demo}), else {@code demo--echo} (its
 * Azure form). A tool takes the block's {@code content} when its params schema has a {@code content}
 * property or allows any property; {@code currentBlockId} and {@code previousResults} only when it
 * declares them.
 */
final class ToolLookup {

    /** What a block calls and with what. */
    record Resolved(String tool, boolean content, boolean blockId, boolean previousResults) {}

    private final Function<String, Optional<JsonNode>> schemas;

    ToolLookup(Function<String, Optional<JsonNode>> schemas) {
        this.schemas = schemas;
    }

    /** Whether the tools are known (else any name is taken for a tool). */
    boolean known() {
        return schemas != null;
    }

    /** The tool {@code name} (colon form) calls, or {@code null} when there is none. */
    Resolved resolve(String name) {
        if (schemas == null) {
            return new Resolved(name, true, false, false);
        }
        String tool = name;
        Optional<JsonNode> schema = schemas.apply(name);
        if (schema.isEmpty() && name.indexOf(':') >= 0) {
            tool = FunctionNames.toAzure(name);
            schema = schemas.apply(tool);
        }
        if (schema.isEmpty()) {
            return null;
        }
        JsonNode properties = schema.get().path("properties");
        JsonNode additional = schema.get().path("additionalProperties");
        boolean open = !(additional.isBoolean() && !additional.asBoolean());
        return new Resolved(
                tool,
                properties.has("content") || open,
                properties.has("currentBlockId"),
                properties.has("previousResults"));
    }
}
