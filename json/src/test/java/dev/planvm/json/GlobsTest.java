package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one glob matcher the tool policy and the reach analysis share. */
class GlobsTest {

    @Test
    void a_star_matches_any_run_colons_too_and_a_question_mark_one_character() {
        assertThat(Globs.matches("send_*", "send_mail")).isTrue();
        assertThat(Globs.matches("send_*", "send_")).isTrue();
        assertThat(Globs.matches("*", "mail:send_mail")).isTrue();
        assertThat(Globs.matches("mail:*", "mail:send_mail")).isTrue();
        assertThat(Globs.matches("*:send_?ail", "mail:send_mail")).isTrue();
        assertThat(Globs.matches("send_?", "send_")).isFalse();
    }

    @Test
    void a_glob_matches_the_whole_name_not_a_part_of_it() {
        assertThat(Globs.matches("send", "send_mail")).isFalse();
        assertThat(Globs.matches("mail", "mail:send_mail")).isFalse();
        assertThat(Globs.matches("*mail", "mail:send_mail_now")).isFalse();
        assertThat(Globs.matches("a*b*c", "axxbyyc")).isTrue();
        assertThat(Globs.matches("a*b*c", "axxbyy")).isFalse();
    }

    @Test
    void many_stars_against_a_long_name_that_fails_at_the_end_still_answers() {
        String name = "a".repeat(10_000) + "b";
        assertThat(Globs.matches("*a*a*a*a*a*c", name)).isFalse();
        assertThat(Globs.matches("*a*a*a*a*a*b", name)).isTrue();
    }
}
