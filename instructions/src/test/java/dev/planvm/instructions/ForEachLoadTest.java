package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code for_each} and {@code as} on {@code calling}: typed once, checked statically. */
class ForEachLoadTest {

    private final PlanLoader loader = new PlanLoader();

    private LoadResult load(String forEach) {
        return loader.load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"urls": ["a", "b"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "t", %s
                   "tool_params": {"url": "${item}", "n": "${index}"}, "output_vars": "out"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${out}"}}]""".formatted(forEach), "p.json");
    }

    private static List<String> messages(List<Diagnostic> diagnostics) {
        return diagnostics.stream().map(Diagnostic::message).toList();
    }

    @Test
    void for_each_is_typed_with_item_as_the_default_name() {
        Calling calling =
                (Calling) load("\"for_each\": \"${urls}\",").planOrThrow().instruction(1);
        assertThat(calling.forEach()).isNotNull();
        assertThat(calling.forEach().as()).isEqualTo("item");
        assertThat(calling.forEach().list().variables()).containsExactly("urls");
    }

    @Test
    void the_element_and_index_are_bound_inside_the_params_and_are_not_reads() {
        LoadResult result = load("\"for_each\": \"${urls}\",");
        assertThat(result.warnings()).isEmpty();
        assertThat(result.errors()).isEmpty();
        Calling calling = (Calling) result.planOrThrow().instruction(1);
        assertThat(calling.reads()).containsExactly("urls");
    }

    @Test
    void without_for_each_item_is_an_unassigned_read() {
        assertThat(messages(load("").warnings())).anyMatch(m -> m.contains("${item} reads 'item'"));
    }

    @Test
    void the_list_itself_is_a_read_checked_like_any_other() {
        LoadResult result = load("\"for_each\": \"${pages}\",");
        assertThat(messages(result.warnings())).anyMatch(m -> m.contains("${pages} reads 'pages'"));
    }

    @Test
    void as_renames_the_element() {
        LoadResult result = loader.load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "t", "for_each": [1, 2], "as": "n",
                   "tool_params": {"x": "${n}"}, "output_vars": "final_answer"}}]""", "p.json");
        assertThat(result.warnings()).isEmpty();
        assertThat(((Calling) result.planOrThrow().instruction(0)).forEach().as())
                .isEqualTo("n");
    }

    @Test
    void for_each_must_be_one_reference_or_a_literal_array() {
        assertThat(messages(load("\"for_each\": \"urls ${urls}\",").errors()))
                .anyMatch(m -> m.startsWith("for_each must be exactly one ${reference}"));
        assertThat(load("\"for_each\": {\"a\": 1},").errors()).isNotEmpty();
    }

    @Test
    void as_cannot_be_index_and_needs_for_each() {
        assertThat(messages(
                        load("\"for_each\": \"${urls}\", \"as\": \"index\",").errors()))
                .anyMatch(m -> m.startsWith("'as' cannot be 'index'"));
        assertThat(messages(load("\"as\": \"x\",").errors())).anyMatch(m -> m.contains("has no for_each"));
    }

    @Test
    void a_map_stores_one_array_so_it_takes_one_output_variable() {
        LoadResult result = loader.load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "t", "for_each": [1],
                   "output_vars": ["a", "b"]}}]""", "p.json");
        assertThat(messages(result.errors())).anyMatch(m -> m.contains("stores one array of outputs"));
    }
}
