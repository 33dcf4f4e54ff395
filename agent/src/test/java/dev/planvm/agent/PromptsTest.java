package dev.planvm.agent;

import dev.planvm.agent.format.AnswerFormat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.agent.internal.Catalog;
import dev.planvm.agent.internal.Prompts;
import dev.planvm.instructions.PlanSchemas;
import dev.planvm.instructions.expr.Builtins;
import org.junit.jupiter.api.Test;

class PromptsTest {

    @Test
    void every_builtin_function_is_described_and_nothing_else_is() {
        assertThat(Prompts.functionDescriptions().keySet()).containsExactlyInAnyOrderElementsOf(Builtins.NAMES);
    }

    @Test
    void the_system_prompt_carries_the_schema_resource_every_instruction_type_and_every_function() {
        String system = Prompts.system(new Catalog(JsonNodeFactory.instance.arrayNode(), false), AnswerFormat.TEXT);

        assertThat(system).contains(PlanSchemas.planSchema().toString());
        PlanSchemas.planSchema().at("/$defs/instruction/properties/type/enum")
                .forEach(type -> assertThat(system).contains("P" ).contains(type.asText()));
        Builtins.NAMES.forEach(name -> assertThat(system).contains("- " + name + "("));
        assertThat(system).contains("No tools are available", "LLM conditions (jmp with condition_prompt) are not available");
    }
}
