package dev.planvm.dialects.internal.ppe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Events ({@code $on}, {@code $once}, {@code $off}, {@code $emit}) with expression callbacks run as the reference
 * runs them: the expected values are what {@code ai run} of {@code @offline-ai/cli} 0.10.4 printed for the same
 * scripts (the last listener's value is the result, an event nobody listens to leaves the result).
 */
class PpeEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void the_seeds_expression_listener_spreads_the_emitted_mapping() throws Exception {
        String script = """
                $on:
                  event: test
                  callback: "?={...arg1, event: event.type}"
                $emit:
                  event: test
                  args:
                    a: 1
                    b: 2
                """;
        assertThat(run(script)).isEqualTo(JSON.readTree("{\"a\":1,\"b\":2,\"event\":\"test\"}"));
    }

    @Test
    void a_list_of_args_is_arg1_and_args_and_a_once_listener_runs_once() throws Exception {
        String script = """
                $on:
                  event: test
                  callback: "?={first: arg1, rest: args, event: event.type}"
                $once:
                  event: test
                  callback: "?=arg1"
                $emit:
                  event: test
                  args:
                    - a: 1
                    - b: 2
                    - 3
                $set:
                  x: ?=LatestResult
                $emit:
                  event: test
                  args: [5]
                $echo: "?=[x, LatestResult]"
                """;
        assertThat(run(script)).isEqualTo(JSON.readTree("[{\"a\":1},{\"first\":5,\"rest\":[],\"event\":\"test\"}]"));
    }

    @Test
    void an_event_nobody_listens_to_and_a_listener_leave_the_result() {
        assertThat(run("$echo: before\n$on:\n  event: test\n  callback: \"?=1\"\n$emit:\n  event: other\n"))
                .isEqualTo(TextNode.valueOf("before"));
    }

    @Test
    void off_removes_the_listener_with_the_same_callback() {
        String script = """
                $on:
                  event: test
                  callback: "?='on'"
                $echo: before
                $off:
                  event: test
                  callback: "?='on'"
                $emit:
                  event: test
                """;
        assertThat(run(script)).isEqualTo(TextNode.valueOf("before"));
    }

    @Test
    void a_listener_in_a_branch_and_a_function_callback_are_refused_with_their_line() {
        Compiled branch = DialectCompiler.of(Dialect.PPE)
                .compile(
                        "- $if: \"?=true\"\n  then:\n    $on:\n      event: t\n      callback: \"?=1\"\n", "e.ai.yaml");
        assertThat(branch.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("e.ai.yaml"))
                        .contains("line 3")
                        .contains("$on is supported at the top level of a script"));
        Compiled function =
                DialectCompiler.of(Dialect.PPE).compile("$on:\n  event: t\n  callback: onTest\n", "f.ai.yaml");
        assertThat(function.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("f.ai.yaml"))
                        .contains("line 3")
                        .contains("function callbacks ('onTest') need a JavaScript engine"));
    }

    private static JsonNode run(String script) {
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile(script, "events.ai.yaml");
        assertThat(compiled.errors()).isEmpty();
        PlanVm vm = PlanVm.builder().build();
        RunResult result = vm.run(compiled.load(vm.loader(), "events.ai.yaml").planOrThrow(), Map.of());
        assertThat(result.error()).isNull();
        return result.finalAnswer();
    }
}
