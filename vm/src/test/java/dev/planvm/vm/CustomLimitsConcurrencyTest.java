package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A call started ahead of its turn is computed exactly as at its turn, within the run's own
 * limits: with a custom string limit, a concurrent run makes no call a sequential run refuses.
 */
class CustomLimitsConcurrencyTest {

    /** A slow first call keeps the run busy while later calls could start early. */
    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "record", "tool_params": {"q": "first"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "assign", "parameters": {"s": "${x + x}"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "record", "tool_params": {"q": "${s}"}, "output_vars": "b"}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "record", "tool_params": {"q": "long ${x}${x}"}, "output_vars": "c"}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${a}"}}]""";

    private final List<String> calls = new CopyOnWriteArrayList<>();

    private RunResult run(boolean sequential, String plan) {
        PlanVm vm = PlanVm.builder()
                .sequential(sequential)
                .runLimits(RunLimits.DEFAULT.withMaxStringLength(10))
                .tool(Tool.of("record", "", (params, context) -> {
                    calls.add(params.path("q").asText());
                    sleep(params.path("q").asText().equals("first") ? 200 : 0);
                    return TextNode.valueOf("ok");
                }))
                .build();
        Plan loaded = vm.loader().load(plan, "p").planOrThrow();
        return vm.run(loaded, Map.of("x", TextNode.valueOf("123456")));
    }

    @ParameterizedTest(name = "sequential = {0}")
    @ValueSource(booleans = {true, false})
    void an_assign_over_the_custom_limit_fails_and_nothing_reads_its_value(boolean sequential) {
        RunResult result = run(sequential, PLAN);
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().message()).contains("the limit is 10");
        assertThat(calls).containsExactly("first");
    }

    @ParameterizedTest(name = "sequential = {0}")
    @ValueSource(booleans = {true, false})
    void params_over_the_custom_limit_are_never_sent(boolean sequential) {
        String plan = PLAN.replace("\"s\": \"${x + x}\"", "\"s\": \"short\"").replace("${s}", "fine");
        RunResult result = run(sequential, plan);
        assertThat(result.error().seqNo()).isEqualTo(3);
        assertThat(calls).containsExactlyInAnyOrder("first", "fine");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
