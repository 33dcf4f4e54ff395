package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueTemplateTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<ValueTemplate.SyntaxProblem> problems = new ArrayList<>();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('`', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private ValueTemplate parse(String text) {
        return ValueTemplate.parse(json(text), "", problems::add);
    }

    @Test
    void ref_free_values_are_the_original_node() {
        JsonNode node = json("{`a`: [1, `x`, {`b`: null}], `c`: `$ 5`, `d`: true}");
        ValueTemplate t = ValueTemplate.parse(node, "/args", problems::add);
        assertThat(t).isInstanceOf(ValueTemplate.Constant.class);
        assertThat(((ValueTemplate.Constant) t).value()).isSameAs(node);
        assertThat(t.variables()).isEmpty();
        assertThat(problems).isEmpty();
    }

    @Test
    void a_string_with_a_ref_becomes_a_string_template() {
        ValueTemplate t = parse("`${x.y}`");
        assertThat(t).isInstanceOf(ValueTemplate.StringTemplate.class);
        Template template = ((ValueTemplate.StringTemplate) t).template();
        assertThat(template.isSingleRef()).isTrue();
        assertThat(t.variables()).containsExactly("x");
    }

    @Test
    void an_escaped_dollar_brace_is_not_a_constant() {
        ValueTemplate t = parse("`$${x}`");
        assertThat(t).isInstanceOf(ValueTemplate.StringTemplate.class);
        assertThat(((ValueTemplate.StringTemplate) t).template().parts()).containsExactly(new Template.Text("${x}"));
        assertThat(t.variables()).isEmpty();
    }

    @Test
    void objects_and_arrays_are_walked_keeping_constant_subtrees() {
        JsonNode node = json("{`z`: {`fixed`: [1, 2]}, `a`: [`lit`, `${b}`, {`c`: `n=${c + d}`}], `m`: 3}");
        ValueTemplate t = ValueTemplate.parse(node, "", problems::add);

        assertThat(t).isInstanceOf(ValueTemplate.ObjectTemplate.class);
        var fields = ((ValueTemplate.ObjectTemplate) t).fields();
        assertThat(fields.keySet()).containsExactly("z", "a", "m");
        assertThat(fields.get("z")).isEqualTo(new ValueTemplate.Constant(node.get("z")));
        assertThat(fields.get("m")).isEqualTo(new ValueTemplate.Constant(node.get("m")));

        var array = (ValueTemplate.ArrayTemplate) fields.get("a");
        assertThat(array.elements()).hasSize(3);
        assertThat(array.elements().get(0)).isEqualTo(new ValueTemplate.Constant(node.at("/a/0")));
        assertThat(array.elements().get(1)).isInstanceOf(ValueTemplate.StringTemplate.class);
        assertThat(array.elements().get(2)).isInstanceOf(ValueTemplate.ObjectTemplate.class);

        assertThat(t.variables()).containsExactly("b", "c", "d");
        assertThat(problems).isEmpty();
    }

    @Test
    void object_fields_keep_document_order_and_are_immutable() {
        ValueTemplate t = parse("{`q`: `${q}`, `b`: 1, `a`: `${a}`}");
        var fields = ((ValueTemplate.ObjectTemplate) t).fields();
        assertThat(fields.keySet()).containsExactly("q", "b", "a");
        assertThat(t.variables()).containsExactly("q", "a");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> fields.put("x", null))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void every_syntax_error_is_reported_with_its_pointer_and_parsing_continues() {
        JsonNode node = json("{`ok`: `${a}`, `a/b`: `${`, `t~x`: [`fine`, `${foo(1)}`], `last`: `${b c}`}");
        ValueTemplate t = ValueTemplate.parse(node, "/steps/0/args", problems::add);

        assertThat(problems)
                .containsExactly(
                        new ValueTemplate.SyntaxProblem(
                                "/steps/0/args/a~1b", 0, "unterminated reference: missing '}' to close '${'"),
                        new ValueTemplate.SyntaxProblem(
                                "/steps/0/args/t~0x/1",
                                2,
                                "unknown function 'foo' (known: " + String.join(", ", Builtins.NAMES) + ")"),
                        new ValueTemplate.SyntaxProblem(
                                "/steps/0/args/last", 4, "expected '}' to end the reference but found 'c'"));

        var fields = ((ValueTemplate.ObjectTemplate) t).fields();
        assertThat(fields.get("ok")).isInstanceOf(ValueTemplate.StringTemplate.class);
        assertThat(fields.get("a/b")).isEqualTo(new ValueTemplate.Constant(node.get("a/b")));
        assertThat(fields.get("t~x")).isEqualTo(new ValueTemplate.Constant(node.get("t~x")));
        assertThat(fields.get("last")).isEqualTo(new ValueTemplate.Constant(node.get("last")));
        assertThat(t.variables()).containsExactly("a");
    }

    @Test
    void a_failing_root_string_is_reported_at_the_base_pointer() {
        ValueTemplate t = ValueTemplate.parse(json("`x ${}`"), "/when", problems::add);
        assertThat(t).isEqualTo(new ValueTemplate.Constant(json("`x ${}`")));
        assertThat(problems).containsExactly(new ValueTemplate.SyntaxProblem("/when", 2, "empty reference '${}'"));
    }

    @Test
    void scalars_other_than_strings_are_constants() {
        assertThat(parse("12")).isEqualTo(new ValueTemplate.Constant(json("12")));
        assertThat(parse("null")).isEqualTo(new ValueTemplate.Constant(json("null")));
        assertThat(parse("[]")).isEqualTo(new ValueTemplate.Constant(json("[]")));
    }

    @Test
    void problems_in_keys_with_slashes_and_tildes_are_located_by_escaped_pointers() {
        List<ValueTemplate.SyntaxProblem> problems = new ArrayList<>();
        ValueTemplateParser.parse(json("{\"a/~b\": \"${\"}"), "/p", problems::add);
        assertThat(problems)
                .singleElement()
                .extracting(ValueTemplate.SyntaxProblem::pointer)
                .isEqualTo("/p/a~1~0b");
    }
}
