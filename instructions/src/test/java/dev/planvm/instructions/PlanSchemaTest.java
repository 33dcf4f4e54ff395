package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The schema {@code planvm schema} prints is the one validation uses, and it fits real plans. */
class PlanSchemaTest {

    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void the_schema_is_draft_2020_12_and_names_the_four_instruction_types() {
        JsonNode schema = PlanSchemas.planSchema();
        assertThat(schema.path("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.at("/$defs/instruction/properties/type/enum"))
                .extracting(JsonNode::asText)
                .containsExactly("assign", "jmp", "calling", "reasoning");
    }

    /**
     * The printed schema is strict (no extra keys: what an agent should generate); the loader is
     * lenient and only warns about extra keys (DESIGN P2). So a clean plan either satisfies the
     * schema or breaks only its additionalProperties rule, and each such key is a loader warning.
     */
    @Test
    void every_clean_corpus_plan_and_every_example_satisfies_the_whole_plan_schema_but_for_extra_keys()
            throws IOException {
        PlanLoader loader = new PlanLoader();
        try (Stream<Path> files = Stream.concat(Files.list(Corpus.directory()), Files.list(Path.of("../plans")))) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")
                            && !p.toString().endsWith(".cassette.json")
                            && !p.toString().endsWith(".expected.json"))
                    .toList()) {
                JsonNode plan = mapper.readTree(file.toFile());
                if (file.startsWith(Path.of("../plans")) || StackVmCorpusTest.isClean(plan)) {
                    var errors = PlanSchemas.compiledPlanSchema().validate(plan).stream()
                            .filter(e -> !e.getKeyword().equals("anyOf")
                                            && !e.getKeyword().equals("type")
                                    || !e.getInstanceLocation().toString().isEmpty())
                            .toList();
                    assertThat(errors).as(file.toString()).allSatisfy(e -> {
                        assertThat(e.getKeyword()).isEqualTo("additionalProperties");
                        assertThat(loader.load(file).warnings())
                                .extracting(Diagnostic::message)
                                .anyMatch(m -> m.contains("'" + e.getProperty() + "'"));
                    });
                }
            }
        }
    }

    @Test
    void the_whole_plan_schema_refuses_what_the_loader_refuses() throws IOException {
        String[] invalid = {
            "[]",
            "{\"steps\": []}",
            "[{\"seq_no\": 0, \"type\": \"vector_search\", \"parameters\": {}}]",
            "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 1, \"condition\": true, \"jump_if_true\": 1}}]",
            "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"condition_prompt\": \"?\"}}]",
            "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool\": \"a\", \"tool_name\": \"b\"}}]",
            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"2x\": 1}}]",
        };
        PlanLoader loader = new PlanLoader();
        for (String plan : invalid) {
            assertThat(PlanSchemas.compiledPlanSchema().validate(mapper.readTree(plan)))
                    .as(plan)
                    .isNotEmpty();
            assertThat(loader.load(plan, "p").valid()).as(plan).isFalse();
        }
    }

    @Test
    void the_printed_schema_text_is_the_schema_used() throws IOException {
        assertThat(mapper.readTree(PlanSchemas.planSchemaText())).isEqualTo(PlanSchemas.planSchema());
    }
}
