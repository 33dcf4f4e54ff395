package dev.planvm.dialects.internal.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.Recorder;
import dev.planvm.instructions.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The YAML surprises the issue lists, each with the behaviour a plan author gets instead: no
 * booleans from yes/no/on/off, no octal numbers, duplicate keys refused, seed 000's unquoted
 * {@code ${{ a: x }}} accepted, no size surprise below the plan limit, and no expansion bombs.
 */
class YamlPitfallsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DialectCompiler YAML = DialectCompiler.of(Dialect.YAML);

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Recorder echo() {
        return Recorder.echoing("settings");
    }

    @Test
    void yes_no_on_off_reach_the_tool_as_the_text_written_not_as_booleans() {
        var tools = echo();
        tools.run("""
                result:
                  settings:
                    a: yes
                    b: no
                    c: on
                    d: off
                    e: y
                    f: true
                """, "plan.yaml");
        assertThat(tools.calls("settings").get(0).params()).isEqualTo(json("""
                {"a": ["yes"], "b": ["no"], "c": ["on"], "d": ["off"], "e": ["y"], "f": ["true"]}"""));
    }

    @Test
    void numbers_with_a_leading_zero_are_not_octal_and_keep_their_digits() {
        var tools = echo();
        tools.run("""
                result:
                  settings:
                    flight: 0123
                    octal: 0o17
                    hex: 0x1F
                    date: 2023-12-02
                    typed: ${123}
                """, "plan.yaml");
        assertThat(tools.calls("settings").get(0).params()).isEqualTo(json("""
                {"flight": ["0123"], "octal": ["0o17"], "hex": ["0x1F"], "date": ["2023-12-02"], "typed": [123]}"""));
    }

    @Test
    void duplicate_keys_are_refused_at_the_second_one_naming_the_first() {
        Compiled compiled = YAML.compile("""
                a: one
                result:
                  search:
                    q: x
                    q: y
                a: two
                """, "plan.yaml");
        assertThat(compiled.valid()).isFalse();
        assertThat(messages(compiled))
                .containsExactly(
                        "line 5, column 5: duplicate key 'q' (first at line 4, column 5)",
                        "line 6, column 1: duplicate key 'a' (first at line 1, column 1)");
    }

    @Test
    void seed_000s_unquoted_object_literal_compiles_and_runs() {
        var tools = Recorder.echoing("flights");
        var result = tools.run("""
                jfk:
                  flights:
                    origin: JFK
                lga:
                  flights:
                    origin: LGA
                result: ${{ option1: jfk, option2: lga }}
                """, "plan.yaml");
        assertThat(result.finalAnswer()).isEqualTo(json("""
                {"option1": {"origin": ["JFK"]}, "option2": {"origin": ["LGA"]}}"""));
    }

    @Test
    void a_problem_inside_an_unquoted_object_literal_is_reported_at_its_column_in_the_file() {
        Compiled compiled = YAML.compile("""
                x: text
                result: ${{ first: x, second: nothere }}
                """, "plan.yaml");
        assertThat(messages(compiled))
                .containsExactly("line 2, column 31: unknown name 'nothere' (aliases: result, x)");
    }

    @Test
    void a_comment_mark_inside_a_reference_is_kept_and_one_after_the_value_is_a_comment() {
        var tools = Recorder.echoing("search");
        var result = tools.run("""
                result:
                  search:
                    q: ${'issue #42'} # the issue
                """, "plan.yaml");
        assertThat(result.finalAnswer()).isEqualTo(json("{\"q\": [\"issue #42\"]}"));
    }

    @Test
    void a_text_slot_is_a_one_element_list() {
        var tools = Recorder.echoing("search");
        var result = tools.run("""
                result:
                  search:
                    single: one
                    several: [one, two]
                """, "plan.yaml");
        assertThat(result.finalAnswer()).isEqualTo(json("{\"single\": [\"one\"], \"several\": [\"one\", \"two\"]}"));
    }

    @Test
    @Timeout(60) // not hung: a deadline, no timing target
    void a_document_above_snakeyamls_3_mb_default_compiles() {
        String line = "      " + "x".repeat(93) + "\n";
        int lines = 4 * 1024 * 1024 / line.length();
        String big = "result:\n  search:\n    q: |\n" + line.repeat(lines);
        Compiled compiled = YAML.compile(big, "big.yaml");
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.plan().at("/0/parameters/tool_params/q/0").textValue())
                .hasSize(lines * 94);
    }

    @Test
    @Timeout(60) // not hung: a deadline, no timing target
    void a_line_longer_than_64_ki_characters_is_refused_before_yaml_spends_quadratic_time_on_it() {
        String big = "result:\n  search:\n    q: " + "a".repeat(4 * 1024 * 1024) + "\n";
        Compiled compiled = YAML.compile(big, "big.yaml");
        assertThat(messages(compiled))
                .containsExactly("line 3, column 65537: the line is longer than 65,536 characters:"
                        + " write long text as a block scalar (key: |, then the text on indented lines)");
    }

    @Test
    void a_document_over_the_plan_limit_is_refused_in_one_sentence() {
        String tooBig = "result: " + "a".repeat(5 * 1024 * 1024) + "\n";
        Compiled compiled = YAML.compile(tooBig, "big.yaml");
        assertThat(messages(compiled)).containsExactly("the plan is larger than the limit of 5 MiB");
    }

    @Test
    @Timeout(60) // not hung: a deadline, no timing target
    void anchors_and_aliases_are_refused_so_a_billion_laughs_costs_nothing() {
        StringBuilder bomb = new StringBuilder(
                "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n");
        for (char c = 'b'; c <= 'i'; c++) {
            String previous = "*" + (char) (c - 1);
            bomb.append(c)
                    .append(": &")
                    .append(c)
                    .append(" [")
                    .append(String.join(", ", java.util.Collections.nCopies(9, previous)))
                    .append("]\n");
        }
        bomb.append("result: ${i}\n");
        Compiled compiled = YAML.compile(bomb.toString(), "lol.yaml");
        assertThat(compiled.valid()).isFalse();
        assertThat(messages(compiled))
                .anyMatch(m -> m.contains("YAML anchors (&a) are not supported"))
                .anyMatch(m -> m.contains("YAML aliases (*name) are not supported"));
    }

    @Test
    @Timeout(60) // not hung: a deadline, no timing target
    void deep_nesting_is_refused_in_one_sentence_not_a_stack_overflow() {
        String deep = "result: " + "[".repeat(30_000) + "]".repeat(30_000) + "\n";
        Compiled compiled = YAML.compile(deep, "deep.yaml");
        assertThat(messages(compiled)).singleElement().asString().contains("nested too deeply");
    }

    @Test
    void tags_are_refused_because_every_value_is_text() {
        Compiled compiled = YAML.compile("result: !!int 5\n", "plan.yaml");
        assertThat(messages(compiled))
                .singleElement()
                .asString()
                .startsWith("line 1, column 9: YAML tags (tag:yaml.org,2002:int) are not supported in plans");
    }

    @Test
    void a_dash_without_a_space_is_text_with_a_warning_that_says_so() {
        Compiled compiled = YAML.compile("""
                result:
                  search:
                    q:
                      -value3
                """, "plan.yaml");
        assertThat(compiled.plan().at("/0/parameters/tool_params/q")).isEqualTo(json("[\"-value3\"]"));
        assertThat(messages(compiled))
                .containsExactly(
                        "line 4, column 7: '-value3' is the text '-value3', not a list item: write '- value3' (with a space) for a list");
    }

    @Test
    void an_unquoted_reference_inside_a_flow_list_is_a_located_error_that_says_to_quote_it() {
        Compiled compiled = YAML.compile("""
                a: x
                result:
                  search:
                    q: [${a}]
                """, "plan.yaml");
        assertThat(messages(compiled))
                .singleElement()
                .asString()
                .startsWith("line 4, column 10: not valid YAML:")
                .contains("quote it");
    }

    @Test
    void windows_line_ends_and_a_byte_order_mark_are_read_like_any_other_file() {
        var tools = Recorder.echoing("search");
        var result =
                tools.run("\ufeffx: X\r\nresult:\r\n  search:\r\n    q: ${{ a: x }}\r\n    n: 0123\r\n", "plan.yaml");
        assertThat(result.finalAnswer()).isEqualTo(json("{\"q\": [{\"a\": \"X\"}], \"n\": [\"0123\"]}"));
        Compiled broken = YAML.compile("x: X\r\nresult: ${{ a: y }}\r\n", "plan.yaml");
        assertThat(messages(broken)).containsExactly("line 2, column 16: unknown name 'y' (did you mean 'x'?)");
    }

    static List<String> messages(Compiled compiled) {
        return compiled.diagnostics().stream().map(Diagnostic::message).toList();
    }
}
