package dev.planvm.agent.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class StrictPlanSchemaTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Keywords OpenAI's strict structured outputs refuse. */
    private static final Set<String> UNSUPPORTED = Set.of(
            "allOf",
            "oneOf",
            "not",
            "if",
            "then",
            "else",
            "dependentRequired",
            "propertyNames",
            "uniqueItems",
            "pattern",
            "minimum",
            "maximum",
            "minItems",
            "maxItems",
            "patternProperties",
            "const",
            "$schema",
            "$id");

    @Test
    void every_object_has_every_property_required_and_no_additional_properties_and_no_unsupported_keyword() {
        JsonNode schema = StrictPlanSchema.schema();
        assertThat(schema.path("type").asText()).as("the root is an object").isEqualTo("object");
        List<String> problems = new ArrayList<>();
        walk(schema, "", problems);
        assertThat(problems).isEmpty();
        assertThat(schema.at("/$defs/instruction/anyOf"))
                .as("one variant per instruction type")
                .hasSize(4);
    }

    private static void walk(JsonNode node, String at, List<String> problems) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), at + "/" + i, problems);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (UNSUPPORTED.contains(key) && !at.endsWith("/properties")) {
                problems.add(at + ": " + key);
            }
        }
        if (node.has("properties") && !at.endsWith("/properties")) {
            if (!node.path("additionalProperties").isBoolean()
                    || node.path("additionalProperties").asBoolean()) {
                problems.add(at + ": additionalProperties is not false");
            }
            List<String> required = new ArrayList<>();
            node.path("required").forEach(r -> required.add(r.asText()));
            node.path("properties").fieldNames().forEachRemaining(name -> {
                if (!required.contains(name)) {
                    problems.add(at + "/properties/" + name + ": not required");
                }
            });
        }
        node.properties().forEach(field -> walk(field.getValue(), at + "/" + field.getKey(), problems));
    }

    @Test
    void every_valid_corpus_plan_written_in_the_strict_form_fits_the_schema_and_decodes_to_the_same_plan()
            throws IOException {
        Schema strict = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(StrictPlanSchema.schema());
        PlanLoader loader = new PlanLoader();
        int checked = 0;
        List<String> failures = new ArrayList<>();
        try (Stream<Path> files = Files.list(corpus())) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("plan-"))
                    .sorted()
                    .toList()) {
                LoadResult original = loader.load(file);
                if (!original.valid()) {
                    continue;
                }
                JsonNode document = MAPPER.readTree(file.toFile());
                if (!fourTypesOnly(document)) {
                    continue; // the legacy dialect (a tool name as the type) loads with a warning; the strict form has
                    // the four types
                }
                JsonNode encoded = StrictPlanSchema.encode(document);
                if (!strict.validate(encoded).isEmpty()) {
                    failures.add(
                            file.getFileName() + ": " + strict.validate(encoded).get(0));
                }
                JsonNode decoded = StrictPlanSchema.decode(encoded);
                JsonNode instructions = document.isArray() ? document : document.get("plan");
                if (!loader.load(decoded, file.toString()).valid()
                        || !normalized(decoded.get("plan")).equals(normalized(instructions))) {
                    failures.add(file.getFileName() + ": decodes to another plan: "
                            + dev.planvm.json.JsonDiff.diff(
                                    "", normalized(instructions), normalized(decoded.get("plan"))));
                }
                checked++;
            }
        }
        assertThat(failures).isEmpty();
        assertThat(checked).isGreaterThan(800);
    }

    private static boolean fourTypesOnly(JsonNode document) {
        for (JsonNode instruction : document.isArray() ? document : document.path("plan")) {
            if (!Set.of("assign", "jmp", "calling", "reasoning")
                    .contains(instruction.path("type").asText())) {
                return false;
            }
        }
        return true;
    }

    /**
     * What the strict form keeps of a plan: everything but keys the schema does not name where it
     * names them all (an instruction's unknown keys, a reasoning's other parameters: warnings only),
     * and a jmp's {@code "context": null} (the same as no context).
     */
    private static JsonNode normalized(JsonNode instructions) {
        JsonNode copy = instructions.deepCopy();
        for (JsonNode instruction : copy) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) instruction)
                    .retain("seq_no", "type", "parameters", "execution_objective");
            JsonNode parameters = instruction.path("parameters");
            if (instruction.path("type").asText().equals("reasoning") && parameters.isObject()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) parameters)
                        .retain("chain_of_thoughts", "dependency_analysis");
            }
            if (instruction.path("type").asText().equals("jmp")
                    && parameters.path("context").isNull()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) parameters).remove("context");
            }
        }
        return copy;
    }

    @Test
    void entries_become_objects_and_nulls_of_optional_properties_are_left_out() throws IOException {
        JsonNode answer = MAPPER.readTree("""
                {"plan": [{"seq_no": 0, "type": "calling", "execution_objective": null, "parameters": {
                   "tool": null, "tool_name": "search", "params": null,
                   "tool_params": {"entries": [{"name": "query", "value": "TiDB"}, {"name": "filter",
                       "value": {"entries": [{"name": "lang", "value": null}]}}]},
                   "output_vars": ["docs"]}}]}""");

        assertThat(StrictPlanSchema.decode(answer)).isEqualTo(MAPPER.readTree("""
                {"plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search",
                   "tool_params": {"query": "TiDB", "filter": {"lang": null}}, "output_vars": ["docs"]}}]}"""));
    }

    static Path corpus() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("plans/compat/stackvm");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("the StackVM corpus (plans/compat/stackvm) is not found");
    }
}
