package dev.planvm.dialects.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.Recorder;
import dev.planvm.instructions.Diagnostic;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Seed 000's semantics, run on the VM with real in-process tools. */
class YamlDialectTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static final String TWO_FLIGHTS = """
            outbound:
              flights:
                number: 5117
            unused:
              flights:
                number: 1
            also_unused: ${unused.from}
            result: ${outbound}
            """;

    @Test
    void aliases_that_the_result_does_not_reach_are_never_called() {
        Recorder tools = new Recorder().tool("flights", params -> json("[{\"from\": \"DEN\"}]"));
        var result = tools.run(TWO_FLIGHTS, "plan.yaml");
        assertThat(tools.calls())
                .extracting(Recorder.Received::params)
                .containsExactly(json("{\"number\": [\"5117\"]}"));
        assertThat(result.finalAnswer()).isEqualTo(json("{\"from\": \"DEN\"}"));
    }

    @Test
    void an_alias_read_by_several_others_calls_its_domain_once() {
        Recorder tools = new Recorder().tool("flights", params -> json("[{\"from\": \"DEN\", \"to\": \"SFO\"}]"));
        var result = tools.run("""
                f:
                  flights:
                    number: 5117
                a: ${f.from}
                b: ${f.to}
                result: ${[a, b, f.from]}
                """, "plan.yaml");
        assertThat(tools.calls()).hasSize(1);
        assertThat(result.finalAnswer()).isEqualTo(json("[\"DEN\", \"SFO\", \"DEN\"]"));
    }

    @Test
    void an_alias_with_several_domains_is_an_object_of_their_results() {
        Recorder tools = new Recorder()
                .tool("flights", params -> json("[{\"f\": 1}]"))
                .tool("trains", params -> json("[{\"t\": 1}, {\"t\": 2}]"));
        var result = tools.run("""
                result:
                  flights:
                    to: LA
                  trains:
                    to: LA
                """, "plan.yaml");
        assertThat(result.finalAnswer())
                .isEqualTo(json("{\"flights\": {\"f\": 1}, \"trains\": [{\"t\": 1}, {\"t\": 2}]}"));
    }

    @Test
    void each_shortcut_can_be_turned_off() {
        String plan = """
                A:
                  flights:
                    number: 5117
                result: ${A}
                """;
        JsonNode answer = json("[{\"from\": \"DEN\"}]");
        assertThat(run(plan, DialectOptions.DEFAULT)).isEqualTo(json("{\"from\": \"DEN\"}"));
        assertThat(run(plan, DialectOptions.DEFAULT.withUnwrapSingleElement(false)))
                .isEqualTo(answer);
        assertThat(run(plan, DialectOptions.DEFAULT.withSingleDomainResult(false)))
                .isEqualTo(json("{\"flights\": {\"from\": \"DEN\"}}"));
        assertThat(run(
                        plan,
                        DialectOptions.DEFAULT.withSingleDomainResult(false).withUnwrapSingleElement(false)))
                .isEqualTo(json("{\"flights\": [{\"from\": \"DEN\"}]}"));
    }

    private static JsonNode run(String plan, DialectOptions options) {
        Recorder tools = new Recorder().tool("flights", params -> json("[{\"from\": \"DEN\"}]"));
        Compiled compiled = DialectCompiler.of(Dialect.YAML, options).compile(plan, "plan.yaml");
        return tools.run(compiled, "plan.yaml").finalAnswer();
    }

    static Stream<Arguments> outputs() {
        return Stream.of(
                Arguments.of("[{\"a\": 1}]", "{\"a\": 1}"),
                Arguments.of("[false]", "false"),
                Arguments.of("[null]", "null"),
                Arguments.of("[0]", "0"),
                Arguments.of("[\"\"]", "\"\""),
                Arguments.of("[[1]]", "[1]"),
                Arguments.of("[]", "[]"),
                Arguments.of("[1, 2]", "[1, 2]"),
                Arguments.of("{\"a\": [1]}", "{\"a\": [1]}"),
                Arguments.of("\"[1]\"", "\"[1]\""),
                Arguments.of("\"x\"", "\"x\""),
                Arguments.of("\"\"", "\"\""),
                Arguments.of("5", "5"),
                Arguments.of("-5", "-5"),
                Arguments.of("true", "true"),
                Arguments.of("null", "null"),
                Arguments.of("\"\\\\\"", "\"\\\\\""),
                Arguments.of("\"[\"", "\"[\""));
    }

    @ParameterizedTest(name = "{0} gives {1}")
    @MethodSource("outputs")
    void a_one_element_array_result_gives_its_element_and_every_other_result_stays_as_it_is(
            String output, String expected) {
        Recorder tools = new Recorder().tool("lookup", params -> json(output));
        var result = tools.run("result:\n  lookup:\n    q: x\n", "plan.yaml");
        assertThat(result.finalAnswer()).isEqualTo(json(expected));
    }

    @Test
    void slot_values_interpolate_like_planvm_text_and_a_whole_reference_keeps_its_type() {
        Recorder tools = Recorder.echoing("search");
        var result = tools.run("""
                n: ${3}
                o: ${{k: [1, 2]}}
                result:
                  search:
                    text: n is ${n}, o is ${o}
                    typed: ${o}
                    literal: $${n}
                """, "plan.yaml");
        assertThat(result.finalAnswer()).isEqualTo(json("""
                {"text": ["n is 3, o is {\\"k\\":[1,2]}"], "typed": [{"k": [1, 2]}], "literal": ["${n}"]}"""));
    }

    @Test
    void inputs_the_run_provides_are_read_as_variables() {
        Compiled compiled = DialectCompiler.of(Dialect.YAML, DialectOptions.DEFAULT.withInputs(Set.of("user")))
                .compile("result: hello ${user}\n", "plan.yaml");
        var vm = dev.planvm.vm.PlanVm.builder().build();
        var plan = compiled.load(vm.loader(), "plan.yaml").planOrThrow();
        assertThat(vm.run(plan, Map.of("user", TextNode.valueOf("ada"))).finalAnswer())
                .isEqualTo(TextNode.valueOf("hello ada"));
    }

    @Test
    void each_instruction_knows_the_line_it_came_from() {
        Compiled compiled = DialectCompiler.of(Dialect.YAML).compile(TWO_FLIGHTS, "plan.yaml");
        assertThat(compiled.lineOfSeqNo()).containsExactlyInAnyOrderEntriesOf(Map.of(0, 2, 1, 1, 2, 8));
    }

    @Test
    void a_cycle_is_one_error_that_names_the_chain() {
        Compiled compiled = DialectCompiler.of(Dialect.YAML).compile("""
                a: ${b}
                b: ${c}
                c: ${a}
                result: ${a}
                """, "plan.yaml");
        assertThat(compiled.diagnostics())
                .extracting(Diagnostic::message)
                .containsExactly("line 1, column 1: alias 'a' depends on itself: a -> b -> c -> a");
    }
}
