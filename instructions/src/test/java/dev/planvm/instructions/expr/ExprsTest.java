package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExprsTest {

    @Test
    void root_variables_are_the_variables_in_source_order_without_member_or_function_names() {
        Expr e = ExprParser.parse("len(b.c) + a[b] * {k: c, d: x.y}.d + upper(b)");
        assertThat(Exprs.rootVariables(e)).containsExactly("b", "a", "c", "x");
    }

    @Test
    void root_variables_of_literals_are_empty() {
        assertThat(Exprs.rootVariables(ExprParser.parse("[1, 'x', {a: true}]"))).isEmpty();
    }

    @Test
    void render_uses_minimal_parentheses_and_canonical_spacing() {
        assertThat(Exprs.render(ExprParser.parse("(a+b)*c"))).isEqualTo("(a + b) * c");
        assertThat(Exprs.render(ExprParser.parse("a+(b*c)"))).isEqualTo("a + b * c");
        assertThat(Exprs.render(ExprParser.parse("a-(b-c)"))).isEqualTo("a - (b - c)");
        assertThat(Exprs.render(ExprParser.parse("(a-b)-c"))).isEqualTo("a - b - c");
        assertThat(Exprs.render(ExprParser.parse("-(a+b)"))).isEqualTo("-(a + b)");
        assertThat(Exprs.render(ExprParser.parse("(!a).b"))).isEqualTo("(!a).b");
        assertThat(Exprs.render(ExprParser.parse("{ 'k': \"v\", 'a b': [ 1,2, ] }")))
                .isEqualTo("{k: 'v', 'a b': [1, 2]}");
    }

    @Test
    void render_quotes_strings_with_escapes() {
        Expr e = new Expr.Literal(TextNode.valueOf("it's\n\\ \u0001"), 0);
        assertThat(Exprs.render(e)).isEqualTo("'it\\'s\\n\\\\ \\u0001'");
        assertThat(ExprParser.parse(Exprs.render(e))).isEqualTo(e);
    }

    @Test
    void render_parenthesizes_numbers_used_as_member_targets() {
        Expr e = new Expr.Member(new Expr.Literal(IntNode.valueOf(1), 0), "x", 0);
        assertThat(Exprs.render(e)).isEqualTo("(1).x");
        Expr neg = new Expr.Binary(
                BinaryOp.MUL, new Expr.Literal(DoubleNode.valueOf(-2.5), 0), new Expr.Variable("y", 0), 0);
        assertThat(Exprs.render(neg)).isEqualTo("-2.5 * y");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a.b[0].c['key']",
                "a || b && !c == (d != e)",
                "(a || b) && c",
                "1 < x <= 3 > y >= -z",
                "a % b / c * (d + e) - f",
                "join([1, 2.5, 'x', null, true], ', ')",
                "{k: 1, 'two words': [x], null: false}.k",
                "min(a, max(b, c))[1]",
                "- -a",
                "1e3 + 0.5",
            })
    void render_round_trips_to_the_same_tree(String source) {
        Expr parsed = ExprParser.parse(source);
        String rendered = Exprs.render(parsed);
        assertThat(Shapes.shape(ExprParser.parse(rendered))).isEqualTo(Shapes.shape(parsed));
        assertThat(Exprs.render(ExprParser.parse(rendered))).isEqualTo(rendered);
    }

    @Test
    void render_of_a_call_lists_arguments() {
        Expr e = new Expr.Call("max", List.of(new Expr.Variable("a", 0), new Expr.Variable("b", 0)), 0);
        assertThat(Exprs.render(e)).isEqualTo("max(a, b)");
    }
}
