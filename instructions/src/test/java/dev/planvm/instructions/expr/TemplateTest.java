package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.Shapes.shape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class TemplateTest {

    private static void assertError(String source, int offset, String message) {
        assertThatThrownBy(() -> Template.parse(source))
                .isInstanceOf(ExprSyntaxException.class)
                .hasMessage(message)
                .asInstanceOf(type(ExprSyntaxException.class))
                .extracting(ExprSyntaxException::offset)
                .isEqualTo(offset);
    }

    private static Template.Ref ref(Template t, int index) {
        assertThat(t.parts().get(index)).isInstanceOf(Template.Ref.class);
        return (Template.Ref) t.parts().get(index);
    }

    @Test
    void plain_text_is_one_text_part_without_refs() {
        Template t = Template.parse("hello world");
        assertThat(t.source()).isEqualTo("hello world");
        assertThat(t.parts()).containsExactly(new Template.Text("hello world"));
        assertThat(t.hasRefs()).isFalse();
        assertThat(t.isSingleRef()).isFalse();
        assertThat(t.variables()).isEmpty();
    }

    @Test
    void the_empty_string_has_no_parts() {
        Template t = Template.parse("");
        assertThat(t.parts()).isEmpty();
        assertThat(t.isSingleRef()).isFalse();
        assertThat(t.hasRefs()).isFalse();
    }

    @Test
    void a_lone_reference_is_a_single_ref() {
        Template t = Template.parse("${n}");
        assertThat(t.isSingleRef()).isTrue();
        assertThat(t.hasRefs()).isTrue();
        assertThat(t.parts()).containsExactly(new Template.Ref(new Expr.Variable("n", 2), "n", 0));
        assertThat(t.variables()).containsExactly("n");
    }

    @Test
    void whitespace_inside_the_braces_still_makes_a_single_ref() {
        Template t = Template.parse("${ n.x\n}");
        assertThat(t.isSingleRef()).isTrue();
        assertThat(ref(t, 0).source()).isEqualTo(" n.x\n");
        assertThat(shape(ref(t, 0).expr())).isEqualTo("n.x");
    }

    @Test
    void any_other_text_or_a_second_ref_means_not_single() {
        assertThat(Template.parse(" ${n}").isSingleRef()).isFalse();
        assertThat(Template.parse("${n} ").isSingleRef()).isFalse();
        Template two = Template.parse("${a}${b}");
        assertThat(two.isSingleRef()).isFalse();
        assertThat(two.parts()).hasSize(2);
        assertThat(two.variables()).containsExactly("a", "b");
    }

    @Test
    void embedded_refs_split_the_text_and_record_their_offsets() {
        Template t = Template.parse("Hi ${user.name}, you have ${len(items) + 1} items");
        assertThat(t.parts()).hasSize(5);
        assertThat(t.parts().get(0)).isEqualTo(new Template.Text("Hi "));
        assertThat(ref(t, 1).offset()).isEqualTo(3);
        assertThat(ref(t, 1).source()).isEqualTo("user.name");
        assertThat(t.parts().get(2)).isEqualTo(new Template.Text(", you have "));
        assertThat(ref(t, 3).offset()).isEqualTo(26);
        assertThat(shape(ref(t, 3).expr())).isEqualTo("(len(items) + 1)");
        assertThat(t.parts().get(4)).isEqualTo(new Template.Text(" items"));
        assertThat(t.variables()).containsExactly("user", "items");
    }

    @Test
    void expression_positions_are_offsets_into_the_whole_string() {
        Template t = Template.parse("ab ${x + y}");
        Expr.Binary b = (Expr.Binary) ref(t, 1).expr();
        assertThat(b.left().pos()).isEqualTo(5);
        assertThat(b.pos()).isEqualTo(7);
        assertThat(b.right().pos()).isEqualTo(9);
    }

    @Test
    void double_dollar_brace_is_a_literal_dollar_brace() {
        Template t = Template.parse("$${x}");
        assertThat(t.parts()).containsExactly(new Template.Text("${x}"));
        assertThat(t.hasRefs()).isFalse();
    }

    @Test
    void escapes_merge_with_adjacent_text_and_mix_with_refs() {
        Template t = Template.parse("a $${b} ${c} $${d}");
        assertThat(t.parts())
                .containsExactly(
                        new Template.Text("a ${b} "),
                        new Template.Ref(new Expr.Variable("c", 10), "c", 8),
                        new Template.Text(" ${d}"));
    }

    @Test
    void a_dollar_not_followed_by_a_brace_is_literal() {
        assertThat(Template.parse("$").parts()).containsExactly(new Template.Text("$"));
        assertThat(Template.parse("cost: $x and $$ $").parts()).containsExactly(new Template.Text("cost: $x and $$ $"));
        assertThat(Template.parse("$ {x}").hasRefs()).isFalse();
    }

    @Test
    void dollars_are_scanned_left_to_right() {
        assertThat(Template.parse("$$${x}").parts()).containsExactly(new Template.Text("$${x}"));
        Template t = Template.parse("$${n}");
        assertThat(t.hasRefs()).isFalse();
        Template priced = Template.parse("$${price}: $${n}");
        assertThat(priced.parts()).containsExactly(new Template.Text("${price}: ${n}"));
    }

    @Test
    void a_closing_brace_inside_a_string_does_not_end_the_reference() {
        Template t = Template.parse("${'}'}!");
        assertThat(ref(t, 0).expr()).isEqualTo(new Expr.Literal(TextNode.valueOf("}"), 2));
        assertThat(ref(t, 0).source()).isEqualTo("'}'");
        assertThat(t.parts().get(1)).isEqualTo(new Template.Text("!"));
    }

    @Test
    void an_object_literal_can_appear_inside_a_reference() {
        Template t = Template.parse("${ {a: 1}.a }");
        assertThat(t.isSingleRef()).isTrue();
        Expr.Member m = (Expr.Member) ref(t, 0).expr();
        assertThat(m.name()).isEqualTo("a");
        assertThat(((Expr.ObjectLiteral) m.target()).fields())
                .containsExactly(new Expr.Field("a", new Expr.Literal(IntNode.valueOf(1), 7)));
        assertThat(t.variables()).isEmpty();
    }

    @Test
    void text_after_a_reference_is_never_lexed_as_expression() {
        Template t = Template.parse("${a}'unbalanced \" = & #");
        assertThat(t.parts().get(1)).isEqualTo(new Template.Text("'unbalanced \" = & #"));
    }

    @Test
    void an_unterminated_reference_points_at_its_dollar() {
        String message = "unterminated reference: missing '}' to close '${'";
        assertError("x ${a", 2, message);
        assertError("x ${", 2, message);
        assertError("${a + ", 0, message);
        assertError("${ {a: 1}", 0, message);
        assertError("ok ${a} ${len(b", 8, message);
    }

    @Test
    void an_unterminated_string_inside_a_reference_points_at_its_quote() {
        assertError("${a + 'b}", 6, "unterminated string");
    }

    @Test
    void an_empty_reference_is_an_error() {
        assertError("a ${}", 2, "empty reference '${}'");
        assertError("${ \n }", 0, "empty reference '${}'");
    }

    @Test
    void errors_inside_references_point_at_the_offending_character() {
        assertError("abc ${a b}", 8, "expected '}' to end the reference but found 'b'");
        assertError("abc ${a + )}", 10, "unexpected ')'");
        assertError("${x} ${foo(1)}", 7, "unknown function 'foo' (known: " + String.join(", ", Builtins.NAMES) + ")");
        assertError("${'a\\qb'}", 4, "invalid escape '\\q' in string");
        assertError("${2pc}", 2, "a variable name cannot start with a digit");
        assertError("${a + }", 6, "unexpected '}'");
    }

    @Test
    void deep_nesting_inside_a_reference_is_a_syntax_error() {
        assertThatThrownBy(() -> Template.parse("${" + "[".repeat(10_000) + "}"))
                .isInstanceOf(ExprSyntaxException.class)
                .hasMessage("expression nested too deeply");
    }

    @Test
    void parts_are_immutable() {
        Template t = Template.parse("a ${b}");
        assertThatThrownBy(() -> t.parts().add(new Template.Text("x")))
                .isInstanceOf(UnsupportedOperationException.class);
        Template built = new Template("s", new java.util.ArrayList<>(List.of(new Template.Text("s"))));
        assertThat(built.parts()).containsExactly(new Template.Text("s"));
    }
}
