package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.LoadResult;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A legacy instruction typed with its tool's name and carrying calling parameters runs as that call, as in StackVM. */
class LegacyCallRunTest {

    @Test
    void an_instruction_typed_with_its_tool_name_calls_the_tool_and_binds_its_output() {
        TestTools tools = new TestTools();
        PlanVm vm = PlanVm.builder().tools(tools.tools()).build();
        LoadResult loaded = vm.loader().load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"who": "ann"}},
                 {"seq_no": 1, "type": "upper", "parameters": {"tool_name": "upper", "tool_params": {"text": "hi ${who}"},
                   "output_vars": "final_answer"}}]""", "legacy.json");
        assertThat(loaded.warnings())
                .singleElement()
                .extracting(w -> w.message())
                .asString()
                .startsWith("type 'upper' with tool_name is the legacy form of a tool call");

        RunResult result = vm.run(loaded.planOrThrow(), Map.of());

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("HI ANN");
        assertThat(tools.calls.get("upper")).hasValue(1);
        assertThat(result.trace().at("/steps/1/type").asText()).isEqualTo("calling");
    }
}
