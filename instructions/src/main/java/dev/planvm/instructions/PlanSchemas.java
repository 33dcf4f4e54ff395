package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The plan JSON Schema (draft 2020-12), kept as the resource {@code plan.schema.json}: the
 * document {@code planvm schema} prints for agents' structured output, and the schema every loaded
 * instruction is checked against.
 */
public final class PlanSchemas {

    private static final String RESOURCE = "plan.schema.json";

    private PlanSchemas() {}

    /** The plan schema as text, exactly as shipped. */
    public static String planSchemaText() {
        try (InputStream in = PlanSchemas.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The plan schema as a JSON tree (a fresh copy). */
    public static JsonNode planSchema() {
        try {
            return JsonMappers.mapper(JsonLimits.STORE).readTree(planSchemaText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The compiled schema of the whole plan document. */
    static Schema compiledPlanSchema() {
        return PlanHolder.PLAN;
    }

    /** The compiled schema of one instruction ({@code #/$defs/instruction} of the plan schema). */
    static Schema compiledInstructionSchema() {
        return Holder.INSTRUCTION;
    }

    /**
     * Compiled once, on first use; networknt schemas are immutable and thread-safe. Loading a plan needs the
     * instruction schema only, so the whole document's schema is compiled apart, when asked for.
     */
    private static final class Holder {
        static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        static final Schema INSTRUCTION;

        static {
            ObjectNode instruction = (ObjectNode) planSchema();
            instruction.remove("anyOf");
            instruction.put("$id", "https://planvm.dev/schema/instruction.schema.json");
            instruction.put("$ref", "#/$defs/instruction");
            INSTRUCTION = REGISTRY.getSchema(instruction);
        }
    }

    private static final class PlanHolder {
        static final Schema PLAN = Holder.REGISTRY.getSchema(planSchema());
    }
}
