package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class JsonDiffTextTest {

    private static String lines(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
    }

    @Test
    void a_changed_line_shows_as_removed_and_added_with_two_lines_of_context() {
        String expected = lines(1, 10);
        String actual = expected.replace("line 5", "line five");
        assertThat(JsonDiffText.diff(expected, actual))
                .containsExactly(
                        "@@ -3,5 +3,5 @@", " line 3", " line 4", "-line 5", "+line five", " line 6", " line 7");
    }

    @Test
    void inserted_and_removed_lines_keep_the_common_ones_as_context() {
        assertThat(JsonDiffText.diff("a\nb\nc", "a\nc\nd")).containsExactly("@@ -1,3 +1,3 @@", " a", "-b", " c", "+d");
    }

    @Test
    void distant_changes_make_separate_hunks() {
        String expected = lines(1, 20);
        String actual = expected.replace("line 2\n", "line two\n").replace("line 18", "line eighteen");
        List<String> diff = JsonDiffText.diff(expected, actual);
        assertThat(diff)
                .filteredOn(line -> line.startsWith("@@"))
                .containsExactly("@@ -1,4 +1,4 @@", "@@ -16,5 +16,5 @@");
        assertThat(diff).doesNotContain(" line 10");
    }

    @Test
    void a_long_line_is_shown_around_its_first_difference() {
        String head = "x".repeat(300);
        List<String> diff =
                JsonDiffText.diff(head + " old tail " + "z".repeat(300), head + " new tail " + "z".repeat(300));
        assertThat(diff.get(1))
                .startsWith("-…")
                .contains(" old tail ")
                .endsWith("…")
                .hasSizeLessThan(JsonDiffText.LINE_CHARS + 5);
        assertThat(diff.get(2)).startsWith("+…").contains(" new tail ");
    }

    @Test
    void a_long_diff_is_cut_with_a_count_of_the_rest() {
        List<String> diff = JsonDiffText.diff(lines(1, 100), lines(101, 200));
        assertThat(diff).hasSize(JsonDiffText.MAX_LINES + 1).last().asString().matches("… \\(\\d+ more diff lines\\)");
    }

    @Test
    void carriage_returns_are_made_visible() {
        assertThat(JsonDiffText.diff("a\r\nb", "a\nb")).contains("-a\\r", "+a");
    }
}
