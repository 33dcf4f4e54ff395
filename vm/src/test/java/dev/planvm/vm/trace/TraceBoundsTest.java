package dev.planvm.vm.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A value too deep or too large for the trace is replaced in the trace by a marker saying what it
 * was, so the trace can always be written and the run keeps its result.
 */
class TraceBoundsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Returns params.v (a tool output is not bound to a variable unless output_vars says so). */
    private static final Tool ECHO = Tool.of("echo", "Returns params.v.", (params, call) -> params.path("v"));

    private static JsonNode nested(int depth) {
        ArrayNode outer = JsonNodeFactory.instance.arrayNode();
        ArrayNode at = outer;
        for (int i = 1; i < depth; i++) {
            at = at.addArray();
        }
        at.add("bottom");
        return outer;
    }

    /** Returns a value as deep or as long as its params say: the value grows inside the tool, not in the plan. */
    private static final Tool GROW = Tool.of(
            "grow",
            "Returns nested(depth) or text of chars characters.",
            (params, call) -> params.has("depth")
                    ? nested(params.path("depth").asInt())
                    : params.has("items")
                            ? items(params.path("items").asInt())
                            : TextNode.valueOf("x".repeat(params.path("chars").asInt())));

    private static JsonNode items(int count) {
        ArrayNode many = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < count; i++) {
            many.add(i);
        }
        return many;
    }

    private static Plan growing(PlanVm vm, String params) {
        return vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "grow", "tool_params": %s}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "done"}}]""".formatted(params), "p.json").planOrThrow();
    }

    private static Plan plan(PlanVm vm) {
        return vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"v": "${big}"}}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "done"}}]""", "p.json").planOrThrow();
    }

    @Test
    void a_value_deeper_than_the_trace_can_write_is_a_marker_and_the_trace_is_still_written() throws Exception {
        PlanVm vm = PlanVm.builder().tool(GROW).build();
        RunResult result = vm.run(growing(vm, "{\"depth\": 3000}"), Map.of("big", nested(3000)));

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        String written = result.trace().toPrettyString();
        JsonNode trace = MAPPER.readTree(written);
        assertThat(trace.at("/inputs/big/truncated").asText()).isEqualTo("an array nested 3,000 levels deep");
        assertThat(trace.at("/inputs/big/depth").asInt()).isEqualTo(3000);
        assertThat(trace.at("/steps/0/inputs/output/truncated").asText())
                .isEqualTo("an array nested 3,000 levels deep");
        assertThat(trace.at("/result").asText()).isEqualTo("done");
    }

    @Test
    void a_value_larger_than_one_variable_may_hold_is_cut_with_its_size() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(GROW)
                .runLimits(RunLimits.DEFAULT.withMaxValueSize(1_000))
                .build();
        RunResult result = vm.run(growing(vm, "{\"chars\": 1500}"), Map.of());

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        JsonNode marker = MAPPER.readTree(result.trace().toString()).at("/steps/0/inputs/output");
        assertThat(marker.path("truncated").asText()).isEqualTo("text of 1,500 characters");
        assertThat(marker.path("size").asLong()).isEqualTo(1_500);
    }

    @Test
    void values_within_the_bounds_are_kept_whole() {
        PlanVm vm = PlanVm.builder().tool(ECHO).build();
        JsonNode deepButFine = nested(400);
        RunResult result = vm.run(plan(vm), Map.of("big", deepButFine));
        assertThat(result.trace().at("/inputs/big")).isEqualTo(deepButFine);
        assertThat(result.trace().at("/steps/0/inputs/output")).isEqualTo(deepButFine);
    }

    @Test
    void the_marker_quotes_nothing_of_the_value_so_no_part_of_a_secret_survives_a_cut() {
        String secret = "s3cr3t-token-abcdefghijklmnopqrstuvwxyz";
        PlanVm vm = PlanVm.builder()
                .tool(ECHO)
                .runLimits(RunLimits.DEFAULT.withMaxValueSize(100))
                .secrets(Map.of("TOKEN", secret))
                .build();
        String text = "y".repeat(70) + secret + "z".repeat(100);
        RunResult result = vm.run(plan(vm), Map.of("big", TextNode.valueOf(text)));
        String trace = result.trace().toString();
        assertThat(trace)
                .contains("\"truncated\":\"text of 209 characters\"")
                .doesNotContain("s3cr3t-to")
                .doesNotContain("yyyy");
    }

    @Test
    void an_object_too_large_is_one_marker_with_its_size() {
        PlanVm vm = PlanVm.builder()
                .tool(GROW)
                .runLimits(RunLimits.DEFAULT.withMaxValueSize(100))
                .build();
        RunResult result = vm.run(growing(vm, "{\"items\": 200}"), Map.of());
        assertThat(result.trace().at("/steps/0/inputs/output").toString())
                .isEqualTo(
                        "{\"truncated\":\"an array of size 201 (characters of text and keys, plus one per other value)\",\"size\":201}");
    }
}
