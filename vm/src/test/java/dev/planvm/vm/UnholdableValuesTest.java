package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonEquality;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values JSON cannot hold — a number beyond a double's range, text with a lone surrogate — are
 * refused where they are made (json(), a tool's answer), so no variable ever holds one and a
 * stored run resumes to exactly the values the uninterrupted run had.
 */
class UnholdableValuesTest {

    @TempDir
    Path dir;

    private final AtomicBoolean down = new AtomicBoolean();

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of(
                        "infinite",
                        "Answers Infinity.",
                        (params, call) -> DoubleNode.valueOf(Double.POSITIVE_INFINITY)))
                .tool(Tool.of(
                        "half", "Answers half a surrogate pair.", (params, call) -> TextNode.valueOf("smile \ud83d")))
                .tool(Tool.of("flaky", "Fails while down, else answers params.v.", (params, call) -> {
                    if (down.get()) {
                        throw ToolException.permanent("down");
                    }
                    return params.path("v");
                }))
                .build();
    }

    private static RunResult run(PlanVm vm, String plan, Map<String, JsonNode> inputs) {
        return vm.run(vm.loader().load(plan, "p").planOrThrow(), inputs);
    }

    private static String assign(String expression) {
        return "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"" + expression + "\"}}]";
    }

    @Test
    void json_of_a_number_beyond_a_double_is_refused_where_it_is_parsed() {
        RunResult result = run(vm(), assign("${json(t)}"), Map.of("t", TextNode.valueOf("[1, 1e400]")));

        assertThat(result.error().describe())
                .isEqualTo("seq_no 0 (assign): ${json(t)}: json() read a value JSON"
                        + " cannot hold: /1 is the number Infinity, which JSON cannot hold");
    }

    @Test
    void json_of_an_escaped_lone_surrogate_is_refused_where_it_is_parsed() {
        RunResult result = run(vm(), assign("${json(t)}"), Map.of("t", TextNode.valueOf("{\"face\": \"\\ud83d\"}")));

        assertThat(result.error().message())
                .endsWith("json() read a value JSON cannot hold: /face is text with a lone"
                        + " surrogate \\uD83D at character 0, which JSON cannot hold");
    }

    @Test
    void a_tool_answering_infinity_or_half_a_surrogate_pair_fails_its_step() {
        RunResult infinite = run(vm(), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "infinite", "tool_params": {}, "output_vars": "x"}}]""", Map.of());
        RunResult half = run(vm(), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "half", "tool_params": {}, "output_vars": "x"}}]""", Map.of());

        assertThat(infinite.error().describe())
                .isEqualTo("seq_no 0 (calling): tool 'infinite' answered a value JSON"
                        + " cannot hold: the value is the number Infinity, which JSON cannot hold");
        assertThat(half.error().describe())
                .isEqualTo(
                        "seq_no 0 (calling): tool 'half' answered a value JSON cannot"
                                + " hold: the value is text with a lone surrogate \\uD83D at character 6, which JSON cannot hold");
    }

    /** Step 0 makes a value from text, step 1 calls a tool that is down on the first run, so the run is resumed. */
    private static final String STORED = """
            [{"seq_no": 0, "type": "assign", "parameters": {"x": "${json(t)}"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "flaky", "tool_params": {"v": "${x}"},
                                                             "output_vars": "final_answer"}}]""";

    @Test
    void a_resumed_run_ends_exactly_like_the_uninterrupted_one() {
        for (String text : new String[] {"[\"\\ud83d\\ude00\", 1e300]", "[\"\\ud83d\"]", "[1e400]"}) {
            Map<String, JsonNode> inputs = Map.of("t", TextNode.valueOf(text));
            down.set(false);
            RunResult uninterrupted = run(vm(), STORED, inputs);
            RunResult resumed;
            try (RunStore store = RunStore.open(dir.resolve("runs-" + text.hashCode() + ".db"))) {
                PlanVm vm = vm();
                DurableRuns runs = new DurableRuns(vm, store);
                down.set(true);
                DurableRun first = runs.start(vm.loader().load(STORED, "p").planOrThrow(), inputs, RunMode.live());
                down.set(false);
                resumed = first.result().succeeded() || first.result().error().seqNo() == 0
                        ? first.result()
                        : runs.resume(first.id(), RunMode.live(), Map.of()).result();
            }

            assertThat(resumed.status()).as(text).isEqualTo(uninterrupted.status());
            assertThat(JsonEquality.equal(resumed.finalAnswer(), uninterrupted.finalAnswer()))
                    .as("%s: resumed %s, uninterrupted %s", text, resumed.finalAnswer(), uninterrupted.finalAnswer())
                    .isTrue();
            if (!uninterrupted.succeeded()) {
                assertThat(resumed.error().describe())
                        .as(text)
                        .isEqualTo(uninterrupted.error().describe())
                        .startsWith("seq_no 0 (assign): ${json(t)}: json() read a value JSON cannot hold");
            }
        }
    }
}
