package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A plan whose JSON holds a number beyond a double's range ({@code 1e400} reads as Infinity) or a
 * lone surrogate ({@code "\ud800"}) is refused at load, with the {@code seq_no} and pointer: such
 * a value could not be stored and read back as it was, so a resumed run would see another plan.
 */
class UnholdableValuesLoadTest {

    private final PlanLoader loader = new PlanLoader();

    @Test
    void a_number_beyond_a_double_is_refused_where_it_is() {
        LoadResult result = loader.load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"x": [1, 1e400], "final_answer": "${x}"}}]""", "p.json");

        assertThat(result.valid()).isFalse();
        assertThat(result.errors())
                .extracting(d -> d.format("p.json"))
                .containsExactly("p.json: seq_no 0 at /0/parameters/x/1: the value is the number Infinity, which JSON"
                        + " cannot hold (a stored run could not keep it)");
    }

    @Test
    void an_escaped_lone_surrogate_is_refused_where_it_is() {
        LoadResult result = loader.load("""
                [{"seq_no": 3, "type": "assign", "parameters": {"final_answer": "half a face: \\ud83d"}}]""", "p.json");

        assertThat(result.errors())
                .extracting(d -> d.format("p.json"))
                .containsExactly(
                        "p.json: seq_no 3 at /0/parameters/final_answer: the value is text with a lone surrogate"
                                + " \\uD83D at character 13, which JSON cannot hold (a stored run could not keep it)");
    }

    @Test
    void paired_surrogates_and_large_finite_numbers_load() {
        LoadResult result = loader.load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": ["\\ud83d\\ude00", 1e308]}}]""", "p.json");

        assertThat(result.valid()).isTrue();
    }
}
