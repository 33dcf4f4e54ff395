package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's slots are lists ({@code SlotValue = string[]}), and planvm's tools have typed params
 * schemas: where a tool's schema wants one value, a YAML slot holding one value passes that value,
 * and one holding several is refused before the run, naming the slot and the schema.
 */
class TypedSlotsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<JsonNode> received = Collections.synchronizedList(new ArrayList<>());

    /** {@code weather {city: string, days: integer, tags: array}}, answering with the city. */
    private PlanVm vm() {
        JsonNode schema = json("{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"},"
                + " \"days\": {\"type\": \"integer\"}, \"tags\": {\"type\": \"array\"}, \"note\": {}},"
                + " \"required\": [\"city\"], \"additionalProperties\": false}");
        return PlanVm.builder()
                .tool(Tool.of("weather", "the weather of a city", schema, (params, context) -> {
                    received.add(params);
                    return params.get("city");
                }))
                .build();
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Plan load(PlanVm vm, String yaml) {
        return PlanSources.of(vm.loader()).load(yaml, "typed.yaml", null).planOrThrow();
    }

    @Test
    void a_slot_of_one_value_feeds_a_param_typed_as_one_value() {
        PlanVm vm = vm();
        RunResult result = vm.run(load(vm, """
                result:
                  weather:
                    city: Oslo
                    days: ${3}
                    tags: [rain, wind]
                    note: as written
                """), Map.of());
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer().asText()).isEqualTo("Oslo");
        // typed params get the value; an array param and an untyped one keep the slot's list
        assertThat(received)
                .containsExactly(json("{\"city\": \"Oslo\", \"days\": 3, \"tags\": [\"rain\", \"wind\"],"
                        + " \"note\": [\"as written\"]}"));
    }

    @Test
    void every_element_of_each_feeds_a_typed_param() {
        PlanVm vm = vm();
        RunResult result = vm.run(load(vm, """
                cities: ${['Oslo', 'Bergen', 'Tromsø']}
                result:
                  weather:
                    city: ${each(cities)}
                """), Map.of());
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer()).hasToString("[\"Oslo\",\"Bergen\",\"Tromsø\"]");
        assertThat(received)
                .hasSize(3)
                .allSatisfy(params -> assertThat(params.get("city").isTextual()).isTrue());
    }

    @Test
    void a_slot_of_several_values_for_a_typed_param_is_refused_before_the_run_naming_slot_and_schema() {
        PlanVm vm = vm();
        Plan plan = load(vm, """
                result:
                  weather:
                    city: [Oslo, Bergen]
                """);
        assertThatThrownBy(() -> vm.run(plan, Map.of()))
                .isInstanceOf(PlanRejectedException.class)
                .hasMessage("seq_no 0: slot 'city' holds 2 values, but tool 'weather' takes one value there"
                        + " (its params schema: {\"type\":\"string\"})");
        assertThat(received).isEmpty();
    }

    @Test
    void the_cassette_keeps_the_plans_lists_so_a_replay_needs_no_tool() {
        PlanVm vm = vm();
        String yaml = "result:\n  weather:\n    city: Oslo\n";
        RunMode.Record record = RunMode.record();
        assertThat(vm.run(load(vm, yaml), Map.of(), record).error()).isNull();
        Interaction.ToolInteraction call = (Interaction.ToolInteraction)
                record.recording().cassette().interactions().get(0);
        assertThat(call.params()).isEqualTo(json("{\"city\": [\"Oslo\"]}"));

        PlanVm bare = PlanVm.builder().build(); // no weather tool installed
        RunResult replayed = bare.run(
                load(bare, yaml), Map.of(), RunMode.replay(record.recording().cassette(), false));
        assertThat(replayed.error()).isNull();
        assertThat(replayed.finalAnswer().asText()).isEqualTo("Oslo");
    }

    @Test
    void a_stackvm_plan_is_not_fitted_a_list_for_a_typed_param_and_is_refused_as_before() {
        PlanVm vm = vm();
        Plan plan = vm.loader()
                .load(
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"weather\","
                                + " \"tool_params\": {\"city\": [\"Oslo\"]}, \"output_vars\": \"final_answer\"}}]",
                        "plain.json")
                .planOrThrow();
        assertThatThrownBy(() -> vm.run(plan, Map.of())) // params written out that cannot fit: refused before the run
                .isInstanceOf(PlanRejectedException.class)
                .hasMessageContaining("params do not fit the schema of tool 'weather'");
        assertThat(received).isEmpty();
    }

    @Test
    void the_compiled_plan_says_its_params_are_slots() {
        Compiled compiled =
                DialectCompiler.forFile("typed.yaml").compile("result:\n  weather:\n    city: Oslo\n", "t.yaml");
        assertThat(compiled.plan().get(0).path("parameters").path("slots").asBoolean())
                .isTrue();
        Compiled js = DialectCompiler.forFile("typed.js").compile("return weather({city: 'Oslo'});", "t.js");
        assertThat(js.plan().get(0).path("parameters").has("slots")).isFalse();
    }
}
