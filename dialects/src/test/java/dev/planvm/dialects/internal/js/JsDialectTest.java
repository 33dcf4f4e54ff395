package dev.planvm.dialects.internal.js;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectLimits;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.Recorder;
import dev.planvm.instructions.Diagnostic;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Seed 001's semantics, run on the VM with real in-process tools. */
class JsDialectTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DialectCompiler JS = DialectCompiler.of(Dialect.JS);

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void a_call_with_one_object_argument_passes_that_object_as_the_params() {
        Recorder tools = Recorder.echoing("weather");
        tools.run("return weather({city: 'Oslo'});", "plan.js");
        assertThat(tools.calls("weather").get(0).params()).isEqualTo(json("{\"city\": \"Oslo\"}"));
    }

    @Test
    void other_arities_pass_the_arguments_as_args_and_no_argument_as_empty_params() {
        Recorder tools = Recorder.echoing("f");
        tools.run("""
                o = {a: 1};
                return [f(), f('x', 2), f(o), f({b: o.a})];
                """, "plan.js");
        assertThat(tools.calls("f"))
                .extracting(Recorder.Received::params)
                .containsExactlyInAnyOrder(
                        json("{}"),
                        json("{\"args\": [\"x\", 2]}"),
                        json("{\"args\": [{\"a\": 1}]}"),
                        json("{\"b\": 1}"));
    }

    @Test
    void an_alias_read_twice_calls_its_tool_once() {
        Recorder tools = new Recorder()
                .tool("flightInfo", p -> json("{\"departs\": \"8:00\", \"arrives\": \"11:20\"}"))
                .tool("other", p -> p);
        var result = tools.run("""
                flight = flightInfo({airline: 'AA', flight: 1234});
                return other({start: flight.departs, end: flight.arrives});
                """, "plan.js");
        assertThat(tools.calls("flightInfo")).hasSize(1);
        assertThat(result.finalAnswer()).isEqualTo(json("{\"start\": \"8:00\", \"end\": \"11:20\"}"));
    }

    @Test
    void aliases_the_return_does_not_reach_are_never_called() {
        Recorder tools = Recorder.echoing("search");
        tools.run("""
                used = search({q: 'used'});
                unused = search({q: 'never'});
                alsoUnused = [unused, search({q: 'nor this'})];
                return used.q;
                """, "plan.js");
        assertThat(tools.calls()).extracting(Recorder.Received::params).containsExactly(json("{\"q\": \"used\"}"));
    }

    @Test
    void template_literals_render_values_as_text() {
        Recorder tools = Recorder.echoing("search");
        var result = tools.run("""
                n = 3;
                o = {k: [1, 2]};
                return [`n=${n}`, `${n}`, `o=${o}`, `US$${n}`, `${`nested ${n}`}!`];
                """, "plan.js");
        assertThat(result.finalAnswer())
                .isEqualTo(json("[\"n=3\", \"3\", \"o={\\\"k\\\":[1,2]}\", \"US$3\", \"nested 3!\"]"));
    }

    @Test
    void nested_calls_run_innermost_first_into_temporaries() {
        Recorder tools = new Recorder().tool("inner", p -> json("{\"v\": 7}")).tool("outer", p -> p);
        var result = tools.run("return outer({x: inner({}).v, y: [inner({n: 2}).v]});", "plan.js");
        assertThat(result.finalAnswer()).isEqualTo(json("{\"x\": 7, \"y\": [7]}"));
        assertThat(tools.calls("inner")).hasSize(2);
    }

    @Test
    void a_tool_named_module_function_is_called_by_its_identifier_when_the_tools_are_known() {
        Recorder tools = Recorder.echoing("web:search");
        Compiled compiled = DialectCompiler.of(Dialect.JS, DialectOptions.DEFAULT.withTools(Set.of("web:search")))
                .compile("return web_search({q: 'planvm'});", "plan.js");
        assertThat(compiled.plan().at("/0/parameters/tool_name").textValue()).isEqualTo("web:search");
        assertThat(tools.run(compiled, "plan.js").finalAnswer()).isEqualTo(json("{\"q\": \"planvm\"}"));
    }

    @Test
    void builtins_are_synchronous_functions_never_tool_calls() {
        Recorder tools = new Recorder().tool("search", p -> json("{\"items\": [\"a\", \"b\"]}"));
        var result = tools.run("""
                s = search({q: 'x'});
                return {count: len(s.items), first: upper(s.items[0])};
                """, "plan.js");
        assertThat(result.finalAnswer()).isEqualTo(json("{\"count\": 2, \"first\": \"A\"}"));
        assertThat(tools.calls()).hasSize(1);
    }

    @Test
    void the_second_parameter_of_a_map_function_is_each_elements_index() {
        Recorder tools = new Recorder().tool("fetch", p -> p);
        JsonNode answer = tools.run("""
                        pages = ['a', 'b', 'c'].map((url, i) => fetch({url, at: i, label: `${i}:${url}`}));
                        return pages;
                        """, "plan.js").finalAnswer();
        assertThat(answer)
                .isEqualTo(json("[{\"url\": \"a\", \"at\": 0, \"label\": \"0:a\"},"
                        + " {\"url\": \"b\", \"at\": 1, \"label\": \"1:b\"},"
                        + " {\"url\": \"c\", \"at\": 2, \"label\": \"2:c\"}]"));
        assertThat(tools.calls("fetch")).hasSize(3);
    }

    @Test
    void a_list_in_parentheses_that_is_not_a_functions_parameters_is_a_syntax_error_naming_its_line() {
        Compiled compiled = JS.compile("a = 1;\nb = (a, 2);\nreturn b;\n", "plan.js");
        assertThat(compiled.errors())
                .extracting(d -> d.format("plan.js"))
                .containsExactly("plan.js: line 2, column 7: a list in parentheses is only the parameters of a"
                        + " function: (x, i) => tool({...})");
    }

    @Test
    void a_syntax_error_is_a_diagnostic_with_line_and_column_and_no_seq_no() {
        Compiled compiled = JS.compile("a = 1;\nb = f(1 +);\nreturn b;\n", "plan.js");
        assertThat(compiled.valid()).isFalse();
        Diagnostic d = compiled.errors().get(0);
        assertThat(d.seqNo()).isNull();
        assertThat(d.pointer()).isEmpty();
        assertThat(d.format("plan.js"))
                .isEqualTo("plan.js: line 2, column 9: the operator '+' is not part of the plan"
                        + " language (it has literals, names, '.', '[...]' and calls)");
    }

    @Test
    void the_parser_reports_every_statement_with_an_error_in_one_pass() {
        Compiled compiled = JS.compile("a = 1 +;\nb = ;\nc = [;\nreturn 1;\n", "plan.js");
        assertThat(compiled.errors())
                .extracting(Diagnostic::message)
                .allMatch(m -> m.startsWith("line 1,") || m.startsWith("line 2,") || m.startsWith("line 3,"))
                .hasSize(3);
    }

    @Test
    void identifiers_resolve_only_through_the_map_so_host_names_are_unknown() {
        for (String name : List.of("eval", "Function", "globalThis", "require", "process", "constructor")) {
            Compiled compiled = JS.compile("x = " + name + "('1');\nreturn x;\n", "plan.js");
            assertThat(compiled.errors())
                    .extracting(Diagnostic::message)
                    .containsExactly("line 1, column 5: '" + name
                            + "' is not available in plans: they cannot run code or" + " reach the host");
        }
    }

    @Test
    @Timeout(60) // not hung: a deadline, no timing target
    void nesting_beyond_the_limit_is_one_error_not_a_stack_overflow() {
        Compiled compiled = JS.compile("return " + "[".repeat(200_000) + "]".repeat(200_000) + ";", "plan.js");
        assertThat(compiled.errors())
                .extracting(Diagnostic::message)
                .singleElement()
                .asString()
                .contains("nested too deeply");
        Compiled chain = JS.compile("x = {a: 1};\nreturn x" + ".a".repeat(100_000) + ";", "plan.js");
        assertThat(chain.errors())
                .extracting(Diagnostic::message)
                .singleElement()
                .asString()
                .contains("nested too deeply");
    }

    @Test
    void more_aliases_than_the_limit_are_refused() {
        StringBuilder plan = new StringBuilder();
        for (int i = 0; i < 11; i++) {
            plan.append("a").append(i).append(" = ").append(i).append(";\n");
        }
        plan.append("return a0;\n");
        Compiled compiled = DialectCompiler.of(
                        Dialect.JS, DialectOptions.DEFAULT.withLimits(DialectLimits.DEFAULT.withMaxAliases(10)))
                .compile(plan.toString(), "plan.js");
        assertThat(compiled.errors())
                .extracting(Diagnostic::message)
                .containsExactly("line 1, column 1: the plan has 11 aliases, more than the limit of 10");
    }

    @Test
    void a_plan_that_compiles_to_more_instructions_than_the_limit_is_refused() {
        Compiled compiled = DialectCompiler.of(
                        Dialect.JS, DialectOptions.DEFAULT.withLimits(DialectLimits.DEFAULT.withMaxInstructions(2)))
                .compile("return f({a: g({}), b: h({})});", "plan.js");
        assertThat(compiled.errors())
                .extracting(Diagnostic::message)
                .containsExactly("line 1, column 1: the plan compiles to more than 2 instructions");
    }

    @Test
    void inputs_the_run_provides_are_read_as_variables() {
        Compiled compiled = DialectCompiler.of(Dialect.JS, DialectOptions.DEFAULT.withInputs(Set.of("user")))
                .compile("return `hello ${user}`;", "plan.js");
        var vm = dev.planvm.vm.PlanVm.builder().build();
        var plan = compiled.load(vm.loader(), "plan.js").planOrThrow();
        assertThat(vm.run(plan, java.util.Map.of("user", TextNode.valueOf("ada")))
                        .finalAnswer())
                .isEqualTo(TextNode.valueOf("hello ada"));
    }
}
