package dev.planvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.agent.internal.Catalog;
import dev.planvm.agent.internal.Prompts;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.PlanSchemas;
import dev.planvm.instructions.expr.Builtins;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The planner's prompt is built from planvm's sources of truth: every instruction type the loader accepts
 * has its rule, every builtin function is listed with its arity, every date/time method and name is named.
 */
class PromptsTest {

    @Test
    void every_builtin_function_is_described_and_nothing_else_is() {
        assertThat(Prompts.functionDescriptions().keySet()).containsExactlyInAnyOrderElementsOf(Builtins.NAMES);
    }

    @Test
    void the_system_prompt_carries_the_schema_resource_every_instruction_type_and_every_function() {
        String system = Prompts.system(new Catalog(JsonNodeFactory.instance.arrayNode(), false), AnswerFormat.TEXT);

        assertThat(system).contains(PlanSchemas.planSchema().toString());
        assertThat(system)
                .contains("No tools are available", "LLM conditions (jmp with condition_prompt) are not available");
    }

    /** The instruction types the loader accepts, as its own error for an unknown type lists them. */
    private static List<String> typesTheLoaderAccepts() {
        LoadResult loaded = new PlanLoader().load("[{\"seq_no\": 0, \"type\": \"qqqqqqqq\", \"parameters\": {}}]", "p");
        String message = loaded.errors().stream()
                .map(Diagnostic::message)
                .filter(m -> m.contains("(the types are "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no list of types in " + loaded.errors()));
        Matcher types = Pattern.compile("\\(the types are ([a-z_, ]+)\\)").matcher(message);
        assertThat(types.find()).as(message).isTrue();
        return List.of(types.group(1).split(", "));
    }

    @Test
    void the_plan_language_part_of_the_prompt_has_a_rule_for_every_instruction_type_the_loader_accepts() {
        String system = Prompts.system(new Catalog(JsonNodeFactory.instance.arrayNode(), false), AnswerFormat.TEXT);
        String language = system.substring(0, system.indexOf("# The plan JSON Schema")); // not the schema text itself
        List<String> schemaTypes = new ArrayList<>();
        PlanSchemas.planSchema()
                .at("/$defs/instruction/properties/type/enum")
                .forEach(type -> schemaTypes.add(type.asText()));

        assertThat(typesTheLoaderAccepts())
                .as("the schema and the loader agree")
                .containsExactlyInAnyOrderElementsOf(schemaTypes)
                .isNotEmpty();
        for (String type : schemaTypes) {
            assertThat(Pattern.compile("(?m)^P\\d+ " + Pattern.quote(type) + "\\. ")
                            .matcher(language)
                            .find())
                    .as("a rule 'Pn %s. ...' in the plan language", type)
                    .isTrue();
        }
        Matcher listed = Pattern.compile("type \\(([a-z_, ]+?)\\)").matcher(language);
        assertThat(listed.find()).as("P2 lists the types").isTrue();
        assertThat(listed.group(1).replace(" or ", ", ").split(", ")).containsExactlyInAnyOrderElementsOf(schemaTypes);
    }

    @Test
    void the_prompt_names_every_builtin_function_with_its_arity_every_date_method_and_every_date_name() {
        String system = Prompts.system(new Catalog(JsonNodeFactory.instance.arrayNode(), false), AnswerFormat.TEXT);
        String functions = system.substring(system.indexOf("# Expression functions"), system.indexOf("# Tools"));
        Map<String, String> described = Prompts.functionDescriptions();

        assertThat(Builtins.FUNCTIONS).isNotEmpty();
        Builtins.FUNCTIONS.forEach((name, arity) ->
                assertThat(functions).contains("- " + described.get(name) + " [" + arity.describe() + "]\n"));
        assertThat(Builtins.METHODS).isNotEmpty();
        Builtins.METHODS
                .keySet()
                .forEach(method -> assertThat(functions).as("method %s", method).contains("d." + method + "("));
        assertThat(Builtins.CONSTANTS).isNotEmpty();
        Builtins.CONSTANTS.forEach(name -> assertThat(
                        Pattern.compile("\\b" + name + "\\b").matcher(functions).find())
                .as("date name %s", name)
                .isTrue());
    }
}
