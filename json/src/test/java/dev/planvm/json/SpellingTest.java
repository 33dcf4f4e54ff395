package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpellingTest {

    @Test
    void suggests_a_known_name_within_two_edits() {
        assertThat(Spelling.closest("asign", List.of("jmp", "assign"))).contains("assign");
        assertThat(Spelling.closest("asgn", List.of("assign"))).contains("assign");
    }

    @Test
    void suggests_nothing_three_edits_away() {
        assertThat(Spelling.closest("asg", List.of("assign"))).isEmpty();
        assertThat(Spelling.closest("reasoning", List.of("calling", "jmp"))).isEmpty();
    }

    @Test
    void ignores_case_and_keeps_the_known_spelling() {
        assertThat(Spelling.closest("CALLING", List.of("calling"))).contains("calling");
        assertThat(Spelling.closest("vector_serch", List.of("Vector_Search"))).contains("Vector_Search");
    }

    @Test
    void counts_a_swap_of_two_neighbours_as_one_edit() {
        assertThat(Spelling.closest("jpm", List.of("jmp"))).contains("jmp");
        assertThat(Spelling.distance("abcd", "abdc")).isEqualTo(1);
    }

    @Test
    void allows_one_edit_only_for_names_of_three_characters_or_fewer() {
        assertThat(Spelling.closest("ab", List.of("xy"))).isEmpty();
        assertThat(Spelling.closest("abc", List.of("axy"))).isEmpty();
        assertThat(Spelling.closest("abc", List.of("abx"))).contains("abx");
        assertThat(Spelling.closest("abcd", List.of("axyd"))).contains("axyd");
    }

    @Test
    void suggests_the_closest_name_rather_than_the_first_close_one() {
        assertThat(Spelling.closest("statu", List.of("start", "status"))).contains("status");
    }

    @Test
    void suggests_the_first_of_equally_close_names() {
        assertThat(Spelling.closest("sate", List.of("state", "site"))).contains("state");
        assertThat(Spelling.closest("sate", List.of("site", "state"))).contains("site");
    }

    @Test
    void never_suggests_the_word_itself() {
        assertThat(Spelling.closest("jmp", List.of("jmp"))).isEmpty();
        assertThat(Spelling.closest("jmp", List.of("jmp", "jnp"))).contains("jnp");
    }

    @Test
    void looks_for_nothing_beyond_sixty_four_characters() {
        String word = "a".repeat(Spelling.MAX_WORD);
        String near = "a".repeat(Spelling.MAX_WORD - 1) + "b";
        assertThat(Spelling.closest(word, List.of(near))).contains(near);
        assertThat(Spelling.closest(word + "a", List.of(near + "a"))).isEmpty();
    }

    @Test
    void passes_over_names_whose_length_alone_is_too_far() {
        assertThat(Spelling.closest("abcd", List.of("abcdefg"))).isEmpty();
        assertThat(Spelling.closest("abcd", List.of("abcdef"))).contains("abcdef");
    }

    @Test
    void measures_insertions_deletions_and_replacements() {
        assertThat(Spelling.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(Spelling.distance("", "abc")).isEqualTo(3);
        assertThat(Spelling.distance("abc", "")).isEqualTo(3);
        assertThat(Spelling.distance("same", "same")).isZero();
    }
}
