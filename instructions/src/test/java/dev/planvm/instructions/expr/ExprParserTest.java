package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.Shapes.shape;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ExprParserTest {

    private static Expr.Literal literal(String source) {
        Expr e = ExprParser.parse(source);
        assertThat(e).isInstanceOf(Expr.Literal.class);
        return (Expr.Literal) e;
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> syntaxError(String source) {
        return assertThatThrownBy(() -> ExprParser.parse(source)).isInstanceOf(ExprSyntaxException.class);
    }

    private static void assertError(String source, int offset, String message) {
        syntaxError(source)
                .hasMessage(message)
                .asInstanceOf(type(ExprSyntaxException.class))
                .extracting(ExprSyntaxException::offset)
                .isEqualTo(offset);
    }

    // ---- literals

    @Test
    void small_integers_are_int_nodes() {
        assertThat(literal("42").value()).isEqualTo(IntNode.valueOf(42));
        assertThat(literal("0").value()).isEqualTo(IntNode.valueOf(0));
    }

    @Test
    void integers_beyond_int_are_long_nodes_and_beyond_long_are_doubles() {
        assertThat(literal("9000000000").value()).isEqualTo(LongNode.valueOf(9_000_000_000L));
        assertThat(literal("99999999999999999999").value()).isEqualTo(DoubleNode.valueOf(99999999999999999999d));
    }

    @Test
    void fractions_and_exponents_are_double_nodes() {
        assertThat(literal("3.5").value()).isEqualTo(DoubleNode.valueOf(3.5));
        assertThat(literal("0.5").value()).isEqualTo(DoubleNode.valueOf(0.5));
        assertThat(literal("1e3").value()).isEqualTo(DoubleNode.valueOf(1000));
        assertThat(literal("2.5E-2").value()).isEqualTo(DoubleNode.valueOf(0.025));
        assertThat(literal("1e+2").value()).isEqualTo(DoubleNode.valueOf(100));
    }

    @Test
    void numbers_cannot_start_with_a_dot() {
        assertError(".5", 0, "unexpected '.'");
    }

    @Test
    void a_decimal_point_needs_a_digit_after_it() {
        assertError("3.", 2, "expected a digit after the decimal point");
    }

    @Test
    void a_number_directly_followed_by_letters_is_rejected() {
        assertError("2pc", 0, "a variable name cannot start with a digit");
        assertError("x + 12abc", 4, "a variable name cannot start with a digit");
        assertError("1.5x", 3, "unexpected 'x' after a number");
    }

    @Test
    void leading_zeros_are_rejected() {
        assertError("007", 0, "a number cannot start with a leading zero");
    }

    @Test
    void huge_doubles_are_rejected() {
        assertError("1e999", 0, "number 1e999 is too large");
    }

    @Test
    void strings_may_use_single_or_double_quotes() {
        assertThat(literal("'hi'").value()).isEqualTo(TextNode.valueOf("hi"));
        assertThat(literal("\"hi\"").value()).isEqualTo(TextNode.valueOf("hi"));
        assertThat(literal("''").value()).isEqualTo(TextNode.valueOf(""));
        assertThat(literal("'say \"x\"'").value()).isEqualTo(TextNode.valueOf("say \"x\""));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "'a\\nb'   | `a\nb`",
                "'a\\tb'   | `a\tb`",
                "'a\\rb'   | `a\rb`",
                "'a\\\\b'  | `a\\b`",
                "'a\\'b'   | `a'b`",
                "\"a\\\"b\" | `a\"b`",
                "'a\\/b'   | `a/b`",
                "'\\u00e9\\u0041' | `éA`",
            })
    void string_escapes_are_decoded(String source, String expected) {
        assertThat(literal(source).value().textValue()).isEqualTo(expected);
    }

    @Test
    void unknown_escapes_are_errors_at_the_backslash() {
        assertError("'ab\\qc'", 3, "invalid escape '\\q' in string");
        assertError("'\\b'", 1, "invalid escape '\\b' in string");
    }

    @Test
    void short_unicode_escapes_are_errors() {
        assertError("'\\u12g4'", 1, "invalid escape '\\u' in string: expected 4 hex digits");
        assertError("'\\u12", 1, "invalid escape '\\u' in string: expected 4 hex digits");
    }

    @Test
    void unterminated_strings_are_errors_at_the_opening_quote() {
        assertError("x + 'abc", 4, "unterminated string");
        assertError("\"abc\\", 0, "unterminated string");
    }

    @Test
    void keywords_are_literals_not_variables() {
        assertThat(literal("true").value()).isEqualTo(BooleanNode.TRUE);
        assertThat(literal("false").value()).isEqualTo(BooleanNode.FALSE);
        assertThat(literal("null").value()).isEqualTo(NullNode.getInstance());
        assertThat(ExprParser.parse("nullable")).isEqualTo(new Expr.Variable("nullable", 0));
    }

    @Test
    void array_literals_allow_mixed_elements_and_a_trailing_comma() {
        Expr e = ExprParser.parse("[1, 'a', x,]");
        assertThat(e).isInstanceOf(Expr.ArrayLiteral.class);
        Expr.ArrayLiteral a = (Expr.ArrayLiteral) e;
        assertThat(a.elements())
                .containsExactly(
                        new Expr.Literal(IntNode.valueOf(1), 1),
                        new Expr.Literal(TextNode.valueOf("a"), 4),
                        new Expr.Variable("x", 9));
        assertThat(((Expr.ArrayLiteral) ExprParser.parse("[]")).elements()).isEmpty();
    }

    @Test
    void a_lone_comma_in_an_array_is_an_error() {
        assertError("[,]", 1, "unexpected ','");
        assertError("[1 2]", 3, "expected ',' or ']' but found number 2");
    }

    @Test
    void object_literals_accept_bare_quoted_and_keyword_keys_in_order() {
        Expr e = ExprParser.parse("{k: 1, 'quoted key': x, \"k2\": [], null: 2,}");
        assertThat(e).isInstanceOf(Expr.ObjectLiteral.class);
        assertThat(((Expr.ObjectLiteral) e).fields())
                .extracting(Expr.Field::key)
                .containsExactly("k", "quoted key", "k2", "null");
        assertThat(shape(e)).isEqualTo("{k: 1, quoted key: x, k2: [], null: 2}");
        assertThat(((Expr.ObjectLiteral) ExprParser.parse("{}")).fields()).isEmpty();
    }

    @Test
    void object_literal_errors_are_specific() {
        assertError("{1: 2}", 1, "expected a field name but found number 1");
        assertError("{a 2}", 3, "expected ':' after field name 'a' but found number 2");
        assertError("{a: 1, a: 2}", 7, "duplicate field 'a' in object");
        assertError("{a: 1 b: 2}", 6, "expected ',' or '}' but found 'b'");
    }

    // ---- paths

    @Test
    void paths_chain_members_and_indexes_left_to_right() {
        Expr e = ExprParser.parse("a.b[0].c['key'][\"k2\"]");
        assertThat(shape(e)).isEqualTo("a.b[0].c['key']['k2']");
        Expr.Index outer = (Expr.Index) e;
        assertThat(outer.index()).isEqualTo(new Expr.Literal(TextNode.valueOf("k2"), 16));
        assertThat(outer.pos()).isEqualTo(15);
        assertThat(Exprs.rootVariables(e)).containsExactly("a");
    }

    @Test
    void member_positions_point_at_the_name() {
        Expr.Member m = (Expr.Member) ExprParser.parse("steps . out");
        assertThat(m.name()).isEqualTo("out");
        assertThat(m.pos()).isEqualTo(8);
        assertThat(m.target()).isEqualTo(new Expr.Variable("steps", 0));
    }

    @Test
    void keywords_are_allowed_as_member_names() {
        Expr.Member m = (Expr.Member) ExprParser.parse("a.null");
        assertThat(m.name()).isEqualTo("null");
        assertThat(shape("x.true.false")).isEqualTo("x.true.false");
    }

    @Test
    void a_member_name_must_be_an_identifier() {
        assertError("a.0", 2, "expected a field name after '.' but found number 0");
        assertError("a.", 2, "expected a field name after '.' but found end of expression");
        assertError("a['x'", 5, "expected ']' but found end of expression");
    }

    @Test
    void whitespace_including_newlines_is_allowed_between_tokens() {
        assertThat(shape("\n a\t.b [ 1 ]\r\n+\n2 ")).isEqualTo("(a.b[1] + 2)");
    }

    // ---- operators

    @Test
    void multiplication_binds_tighter_than_addition() {
        assertThat(shape("a + b * c")).isEqualTo("(a + (b * c))");
        assertThat(shape("a * b - c % d")).isEqualTo("((a * b) - (c % d))");
    }

    @Test
    void adds_bind_tighter_than_comparisons() {
        assertThat(shape("a + 1 < b - 2")).isEqualTo("((a + 1) < (b - 2))");
    }

    @Test
    void comparisons_bind_tighter_than_equality() {
        assertThat(shape("a < b == c >= d")).isEqualTo("((a < b) == (c >= d))");
    }

    @Test
    void equality_binds_tighter_than_and_which_binds_tighter_than_or() {
        assertThat(shape("a || b && c == d")).isEqualTo("(a || (b && (c == d)))");
        assertThat(shape("a && b || c && d")).isEqualTo("((a && b) || (c && d))");
    }

    @Test
    void binary_operators_are_left_associative() {
        assertThat(shape("a - b - c")).isEqualTo("((a - b) - c)");
        assertThat(shape("a / b * c % d")).isEqualTo("(((a / b) * c) % d)");
        assertThat(shape("a == b != c")).isEqualTo("((a == b) != c)");
        assertThat(shape("a || b || c")).isEqualTo("((a || b) || c)");
    }

    @Test
    void comparisons_do_not_chain_specially() {
        assertThat(shape("1 < x < 3")).isEqualTo("((1 < x) < 3)");
    }

    @Test
    void unary_operators_bind_tighter_than_binary_but_looser_than_postfix() {
        assertThat(shape("-a.b * c")).isEqualTo("((-a.b) * c)");
        assertThat(shape("!a[0] && b")).isEqualTo("((!a[0]) && b)");
        assertThat(shape("--x")).isEqualTo("(-(-x))");
        assertThat(shape("a - -1")).isEqualTo("(a - (-1))");
    }

    @Test
    void parentheses_override_precedence() {
        assertThat(shape("(a + b) * c")).isEqualTo("((a + b) * c)");
        assertThat(shape("a - (b - c)")).isEqualTo("(a - (b - c))");
        assertThat(shape("(a || b).c")).isEqualTo("(a || b).c");
    }

    @Test
    void every_binary_operator_maps_to_its_op() {
        String[] symbols = {"||", "&&", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%"};
        for (String symbol : symbols) {
            Expr.Binary b = (Expr.Binary) ExprParser.parse("x " + symbol + " y");
            assertThat(b.op().symbol()).isEqualTo(symbol);
            assertThat(b.pos()).isEqualTo(2);
        }
    }

    @Test
    void single_equals_and_ampersand_get_a_hint() {
        assertError("a = b", 2, "unexpected '=' (use '==' to compare)");
        assertError("a & b", 2, "unexpected '&' (use '&&' for 'and')");
        assertError("a | b", 2, "unexpected '|' (use '||' for 'or')");
    }

    // ---- calls

    @Test
    void builtin_calls_parse_their_arguments() {
        Expr.Call c = (Expr.Call) ExprParser.parse("join(items, ', ')");
        assertThat(c.function()).isEqualTo("join");
        assertThat(c.args()).hasSize(2);
        assertThat(shape(c)).isEqualTo("join(items, ', ')");
        assertThat(shape("max(1, a + 2, len(b))")).isEqualTo("max(1, (a + 2), len(b))");
        assertThat(Exprs.rootVariables(c)).containsExactly("items");
    }

    @Test
    void a_builtin_name_without_parentheses_is_a_variable() {
        assertThat(ExprParser.parse("len")).isEqualTo(new Expr.Variable("len", 0));
    }

    @Test
    void unknown_functions_are_rejected_listing_the_known_ones() {
        assertError(
                "1 + foo(x)",
                4,
                "unknown function 'foo' (known: abs, ceil, contains, floor, join, json, keys, last, len, "
                        + "lower, max, min, next, num, round, split, str, this, trim, upper, values)");
    }

    @Test
    void wrong_argument_counts_are_rejected() {
        assertError("len(a, b)", 0, "len() takes 1 argument, got 2");
        assertError("contains(a)", 0, "contains() takes 2 arguments, got 1");
        assertError("join()", 0, "join() takes 1 or 2 arguments, got 0");
        assertError("x + min()", 4, "min() takes at least 1 argument, got 0");
    }

    @Test
    void only_builtins_can_be_called() {
        assertError(
                "a.b(1)",
                2,
                "there is no method 'b' (values have no methods; the date/time helpers have at, endOf, minus, plus, startOf)");
        assertError(
                "len(x)(1)",
                6,
                "cannot call 'len(x)': only builtin functions can be called, such as len(x), and the date/time"
                        + " helpers' methods (at, endOf, minus, plus, startOf)");
    }

    @Test
    void unclosed_calls_report_what_was_expected() {
        assertError("len(a]", 5, "expected ',' or ')' but found ']'");
        assertError("len(a,)", 6, "unexpected ')'");
    }

    // ---- whole-input and structural errors

    @Test
    void empty_input_is_an_error() {
        assertError("   ", 3, "empty expression");
    }

    @Test
    void the_whole_string_must_be_one_expression() {
        assertError("a b", 2, "unexpected 'b' after the end of the expression");
        assertError("a)", 1, "unexpected ')' after the end of the expression");
        assertError("(a]", 2, "expected ')' but found ']'");
        assertError("a +", 3, "unexpected end of expression");
    }

    @Test
    void unexpected_characters_are_named() {
        assertError("a # b", 2, "unexpected character '#'");
        assertError("a\u00a0b", 1, "unexpected character U+00A0");
        assertError("caf\u00e9", 3, "unexpected character '\u00e9'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"(", "[", "-", "!", "len(", "{a: "})
    void deep_nesting_is_a_syntax_error_not_a_stack_overflow(String opener) {
        String source = opener.repeat(10_000) + "1";
        syntaxError(source).hasMessage("expression nested too deeply");
    }

    @Test
    void very_long_operator_chains_are_rejected_instead_of_building_a_deep_tree() {
        String source = "a" + " + a".repeat(100_000);
        syntaxError(source).hasMessage("expression nested too deeply");
        String path = "a" + ".b".repeat(100_000);
        syntaxError(path).hasMessage("expression nested too deeply");
    }

    @Test
    void moderate_nesting_is_fine() {
        String source = "(".repeat(150) + "1" + ")".repeat(150);
        assertThat(ExprParser.parse(source)).isEqualTo(new Expr.Literal(IntNode.valueOf(1), 150));
        assertThat(ExprParser.parse("a" + " + a".repeat(150))).isInstanceOf(Expr.Binary.class);
    }
}
