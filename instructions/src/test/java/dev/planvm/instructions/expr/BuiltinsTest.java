package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BuiltinsTest {

    @Test
    void the_catalog_lists_every_function_sorted() {
        assertThat(Builtins.NAMES)
                .containsExactly(
                        "abs",
                        "ceil",
                        "contains",
                        "floor",
                        "join",
                        "json",
                        "keys",
                        "last",
                        "len",
                        "lower",
                        "max",
                        "min",
                        "next",
                        "num",
                        "round",
                        "split",
                        "str",
                        "this",
                        "trim",
                        "upper",
                        "values");
        assertThat(Builtins.METHODS.keySet()).containsExactly("at", "endOf", "minus", "plus", "startOf");
        assertThat(Builtins.CONSTANTS).contains("today", "now", "closeofbusiness");
        assertThat(Builtins.FUNCTIONS.keySet()).containsExactlyElementsOf(Builtins.NAMES);
    }

    @Test
    void arities_accept_exactly_their_argument_counts() {
        assertThat(Builtins.FUNCTIONS.get("len").accepts(1)).isTrue();
        assertThat(Builtins.FUNCTIONS.get("len").accepts(2)).isFalse();
        assertThat(Builtins.FUNCTIONS.get("join").accepts(1)).isTrue();
        assertThat(Builtins.FUNCTIONS.get("join").accepts(2)).isTrue();
        assertThat(Builtins.FUNCTIONS.get("join").accepts(3)).isFalse();
        assertThat(Builtins.FUNCTIONS.get("min").accepts(0)).isFalse();
        assertThat(Builtins.FUNCTIONS.get("max").accepts(50)).isTrue();
        assertThat(Builtins.FUNCTIONS.get("split").accepts(2)).isTrue();
        assertThat(Builtins.arity("nope")).isEmpty();
        assertThat(Builtins.isBuiltin("contains")).isTrue();
    }

    @Test
    void arities_describe_themselves_for_messages() {
        assertThat(Builtins.FUNCTIONS.get("len").describe()).isEqualTo("1 argument");
        assertThat(Builtins.FUNCTIONS.get("contains").describe()).isEqualTo("2 arguments");
        assertThat(Builtins.FUNCTIONS.get("join").describe()).isEqualTo("1 or 2 arguments");
        assertThat(Builtins.FUNCTIONS.get("min").describe()).isEqualTo("at least 1 argument");
        assertThat(new Builtins.Arity(1, 3).describe()).isEqualTo("1 to 3 arguments");
    }
}
