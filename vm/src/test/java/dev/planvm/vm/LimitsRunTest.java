package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.ValueSize;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each {@link RunLimits} fails the step that would pass it, with a sentence naming the limit. */
class LimitsRunTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void a_template_longer_than_the_string_limit_fails_its_step_with_the_length_it_would_have() {
        RunResult result = run(PlanVm.builder().build(), """
                [{"seq_no": 0, "type": "assign", "parameters": {"both": "${doc} + ${doc}"}}]""", Map.of("doc", TextNode.valueOf("x".repeat(1_000_000))));

        assertThat(result.error().describe())
                .isEqualTo(
                        "seq_no 0 (assign): ${doc} + ${doc} built a string of 2,000,003 characters; the limit is 1,000,000");
    }

    @Test
    void a_loop_doubling_a_string_stops_at_the_default_string_limit() {
        RunResult result = run(PlanVm.builder().build(), """
                [{"seq_no": 0, "type": "assign", "parameters": {"s": "ab"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"s": "${s + s}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"target_seq": 1}}]""", Map.of());

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().describe())
                .isEqualTo(
                        "seq_no 1 (assign): ${s + s} built a string of 1,048,576 characters; the limit is 1,000,000");
        assertThat(result.variables().get("s").textValue()).hasSize(524_288);
    }

    @Test
    void a_string_exactly_at_the_limit_is_built_and_one_character_more_is_not() {
        JsonNode x = json("[\"a\\\"b\\n\", 1.5, {\"k\": null, \"t\": true}, []]");
        String rendered = "<[\"a\\\"b\\n\",1.5,{\"k\":null,\"t\":true},[]]>";
        String plan = """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "<${x}>"}}]""";

        RunResult fits = run(vm(RunLimits.DEFAULT.withMaxStringLength(rendered.length())), plan, Map.of("x", x));
        RunResult over = run(vm(RunLimits.DEFAULT.withMaxStringLength(rendered.length() - 1)), plan, Map.of("x", x));

        assertThat(fits.finalAnswer().textValue()).isEqualTo(rendered);
        assertThat(over.error().message())
                .isEqualTo("<${x}> built a string of " + rendered.length() + " characters; the limit is "
                        + (rendered.length() - 1));
    }

    @Test
    void a_container_far_over_the_limit_is_refused_without_measuring_all_of_it() {
        ArrayNode big = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < 100_000; i++) {
            big.add("item " + i);
        }

        RunResult result = run(vm(RunLimits.DEFAULT.withMaxStringLength(1000)), """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "items: ${big}"}}]""", Map.of("big", big));

        assertThat(result.error().message())
                .isEqualTo("items: ${big} built a string of more than 1,000 characters; the limit is 1,000");
    }

    @Test
    void a_single_reference_may_read_long_text_but_not_compute_it() {
        PlanVm vm = vm(RunLimits.DEFAULT.withMaxStringLength(1000));
        Map<String, JsonNode> inputs = Map.of("doc", TextNode.valueOf("y".repeat(2000)));

        RunResult read = run(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"a": "${doc}", "b": "${a || 'none'}", "final_answer": "${b}"}}]""", inputs);
        RunResult computed = run(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"a": "${doc}"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "text", "tool_params": {"text": "${upper(a)}"}}}]""", inputs);

        assertThat(read.finalAnswer().textValue()).hasSize(2000);
        assertThat(computed.error().describe())
                .isEqualTo("seq_no 1 (calling): ${upper(a)} built a string of 2,000 characters; the limit is 1,000");
    }

    @Test
    void a_variable_larger_than_the_limit_fails_the_step_that_sets_it() {
        Tool twice = Tool.of(
                "twice",
                "Returns its params twice, in an array.",
                (params, call) ->
                        JsonNodeFactory.instance.arrayNode().add(params).add(params));
        PlanVm vm = PlanVm.builder()
                .tool(twice)
                .runLimits(RunLimits.DEFAULT.withMaxValueSize(50))
                .build();
        Map<String, JsonNode> inputs =
                Map.of("doc", TextNode.valueOf("z".repeat(100)), "half", TextNode.valueOf("z".repeat(40)));

        RunResult text = run(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"copy": "${doc}"}}]""", inputs);
        RunResult output = run(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"ok": "${len(doc)}"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"q": ["${half}"]},
                                                                 "output_vars": "echo"}}]""", inputs);

        assertThat(text.error().describe())
                .isEqualTo(
                        "seq_no 0 (assign): the value for 'copy' is text of 100 characters; the limit for one variable is 50");
        assertThat(output.error().describe())
                .isEqualTo("seq_no 1 (calling): the value for 'echo' is larger than 50"
                        + " (characters of text and keys, plus one per other value), the limit for one variable");
        assertThat(output.variables()).containsKey("ok").doesNotContainKey("echo");
    }

    @Test
    void a_loop_nesting_a_value_deeper_every_pass_stops_at_the_depth_limit() {
        RunResult result = run(vm(RunLimits.DEFAULT.withMaxValueDepth(10)), """
                [{"seq_no": 0, "type": "assign", "parameters": {"x": 0}},
                 {"seq_no": 1, "type": "assign", "parameters": {"x": "${[[x]]}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"target_seq": 1}}]""", Map.of());

        assertThat(result.error().describe())
                .isEqualTo(
                        "seq_no 1 (assign): the value for 'x' is nested deeper than 10 levels, the limit for one variable");
        assertThat(ValueSize.of(result.variables().get("x"), Long.MAX_VALUE, Integer.MAX_VALUE)
                        .depth())
                .isEqualTo(10);
    }

    @Test
    void inputs_are_the_callers_and_are_not_held_to_the_variable_limits() {
        RunResult result =
                run(vm(RunLimits.DEFAULT.withMaxValueSize(10)), """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${len(doc)}"}}]""", Map.of("doc", TextNode.valueOf("w".repeat(100))));

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.finalAnswer().intValue()).isEqualTo(100);
    }

    @Test
    void value_size_counts_text_and_keys_plus_one_per_other_value_and_stops_early() {
        assertThat(ValueSize.of(TextNode.valueOf("abc"), 100, 100)).isEqualTo(new ValueSize(3, 0));
        assertThat(ValueSize.of(json("[1, \"ab\"]"), 100, 100)).isEqualTo(new ValueSize(4, 1));
        assertThat(ValueSize.of(json("{\"k\": null, \"list\": [[]]}"), 100, 100))
                .isEqualTo(new ValueSize(9, 3));
        ArrayNode deep = JsonNodeFactory.instance.arrayNode();
        ArrayNode inner = deep;
        for (int i = 0; i < 100_000; i++) {
            inner = inner.addArray();
        }
        assertThat(ValueSize.of(deep, Long.MAX_VALUE, 500).depth()).isEqualTo(501);
        assertThat(ValueSize.of(deep, 1000, Integer.MAX_VALUE).size()).isEqualTo(1001);
    }

    @Test
    void limits_must_be_positive() {
        assertThatThrownBy(() -> RunLimits.DEFAULT.withMaxStringLength(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RunLimits.DEFAULT.withMaxValueSize(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(RunLimits.DEFAULT).isEqualTo(new RunLimits(1_000_000, 5 * 1024 * 1024, 500));
    }

    @Test
    void a_condition_prompt_rendered_exactly_at_the_string_limit_is_asked_and_one_character_more_is_not() {
        JsonNode x = json("[\"abc\", 1]");
        int rendered = "[\"abc\",1]".length();
        String plan = """
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition_prompt": "${x}", "jump_if_true": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "asked"}}]""";
        TestTools tools = new TestTools().answering(List.of(true));

        PlanVm fits = PlanVm.builder()
                .conditionEvaluator(tools.conditions())
                .runLimits(RunLimits.DEFAULT.withMaxStringLength(rendered))
                .build();
        PlanVm over = PlanVm.builder()
                .conditionEvaluator(tools.conditions())
                .runLimits(RunLimits.DEFAULT.withMaxStringLength(rendered - 1))
                .build();

        assertThat(run(fits, plan, Map.of("x", x)).finalAnswer().asText()).isEqualTo("asked");
        assertThat(run(over, plan, Map.of("x", x)).error().describe())
                .isEqualTo("seq_no 0 (jmp): the condition_prompt would be text of more than " + (rendered - 1)
                        + " characters, the limit for one string");
    }

    private static PlanVm vm(RunLimits limits) {
        return PlanVm.builder().tools(new TestTools().tools()).runLimits(limits).build();
    }

    private static RunResult run(PlanVm vm, String plan, Map<String, JsonNode> inputs) {
        Plan loaded = vm.loader().load(plan, "limits.json").planOrThrow();
        return vm.run(loaded, inputs);
    }

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
