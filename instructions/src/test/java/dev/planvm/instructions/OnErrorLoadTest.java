package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class OnErrorLoadTest {

    private final PlanLoader loader = new PlanLoader();

    private LoadResult load(String onError) {
        return loader.load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "t", "output_vars": "out",
                  "on_error": %s}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${out} ${last_error}"}}]""".formatted(onError), "p.json");
    }

    @Test
    void on_error_value_is_typed_and_writes_last_error() {
        Calling calling = (Calling) load("{\"value\": \"none\"}").planOrThrow().instruction(0);
        assertThat(calling.onError()).isEqualTo(new OnError.Value(TextNode.valueOf("none")));
        assertThat(calling.writes()).containsExactly("out", "last_error");
        assertThat(calling.jumpTargets()).isEmpty();
    }

    @Test
    void on_error_jump_is_a_jump_target_of_the_calling() {
        LoadResult result = load("{\"jump\": 1}");
        Calling calling = (Calling) result.planOrThrow().instruction(0);
        assertThat(calling.onError()).isEqualTo(new OnError.Jump(1));
        assertThat(calling.jumpTargets()).containsExactly(1);
        assertThat(calling.mayFallThrough()).isTrue();
    }

    @Test
    void reading_last_error_is_no_unassigned_variable_warning() {
        assertThat(load("{\"value\": null}").warnings()).isEmpty();
    }

    @Test
    void a_calling_without_on_error_writes_only_its_output_vars() {
        Calling calling = (Calling) loader.load(
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool\": \"t\", \"output_vars\": [\"a\"]}}]",
                        "p")
                .planOrThrow()
                .instruction(0);
        assertThat(calling.onError()).isNull();
        assertThat(calling.writes()).containsExactly("a");
    }

    @Test
    void a_jump_to_a_missing_seq_no_is_an_error_at_its_pointer() {
        LoadResult result = load("{\"jump\": 7}");
        assertThat(result.errors())
                .extracting(Diagnostic::seqNo, Diagnostic::pointer, Diagnostic::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        0,
                        "/0/parameters/on_error/jump",
                        "jump target 7 is not a seq_no of this plan (they run from 0 to 1)"));
    }

    @Test
    void on_error_needs_exactly_one_of_value_and_jump() {
        for (String both : List.of("{\"value\": 1, \"jump\": 1}", "{}")) {
            LoadResult result = load(both);
            assertThat(result.errors())
                    .extracting(Diagnostic::pointer)
                    .as(both)
                    .containsExactly("/0/parameters/on_error");
            assertThat(result.errors().get(0).message()).startsWith("on_error takes exactly one of");
        }
    }

    @Test
    void on_error_must_be_an_object_and_jump_a_seq_no() {
        assertThat(load("\"skip\"").errors())
                .extracting(Diagnostic::pointer, Diagnostic::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(
                        "/0/parameters/on_error", "on_error must be an object, not a string"));
        assertThat(load("{\"jump\": \"one\"}").errors())
                .extracting(Diagnostic::pointer)
                .containsExactly("/0/parameters/on_error/jump");
    }

    @Test
    void an_unknown_key_in_on_error_is_a_warning() {
        assertThat(load("{\"value\": 1, \"retry\": 3}").warnings())
                .extracting(Diagnostic::pointer)
                .containsExactly("/0/parameters/on_error/retry");
    }

    @Test
    void a_block_after_an_on_error_jump_is_reachable_only_through_it() {
        LoadResult result = loader.load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "t", "output_vars": "out", "on_error": {"jump": 3}}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${out}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"target_seq": 4}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${last_error.message}"}},
                 {"seq_no": 4, "type": "reasoning", "parameters": {}}]""", "p");
        assertThat(result.warnings()).isEmpty();
        assertThat(result.errors()).isEmpty();
    }
}
