package dev.planvm.tools.cassette;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cassettes are untrusted input (hand-written, downloaded, edited): every problem is refused when
 * the cassette is read, with the file and where in it — duplicate keys, text after the document,
 * durations that are not a number of milliseconds, values JSON cannot hold — and a file over the
 * size limit is refused before it is read.
 */
class UntrustedCassetteTest {

    @TempDir
    Path dir;

    private Path file(String json) throws IOException {
        return Files.writeString(dir.resolve("c.json"), json);
    }

    private static final String ONE = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "t", "params": {}, "output": %s, "duration_ms": %s}
            ]}""";

    @Test
    void a_duplicate_key_is_refused_with_its_line_and_column() throws Exception {
        Path c = file("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "a", "params": {},
                   "tool": "b", "output": 1}
                ]}""");

        assertThatThrownBy(() -> Cassette.read(c))
                .isInstanceOf(CassetteException.class)
                .hasMessage(c + ": line 3, column 4: duplicate key 'tool'");
    }

    @Test
    void text_after_the_document_is_refused_with_its_line_and_column() throws Exception {
        Path c = file(String.format(ONE, "1", "5") + "\n{\"format\": \"planvm-cassette/1\", \"interactions\": []}");

        assertThatThrownBy(() -> Cassette.read(c))
                .isInstanceOf(CassetteException.class)
                .hasMessage(c + ": line 4, column 1: text after the end of the cassette's JSON document");
    }

    @Test
    void a_duration_that_is_not_a_number_of_milliseconds_is_refused_where_it_is() throws Exception {
        Path negative = file(String.format(ONE, "1", "-5"));
        assertThatThrownBy(() -> Cassette.read(negative))
                .hasMessage(negative + ": /interactions/0/duration_ms must be"
                        + " a number of milliseconds, 0 or more, not -5");

        Path text = file(String.format(ONE, "1", "\"soon\""));
        assertThatThrownBy(() -> Cassette.read(text))
                .hasMessage(text + ": /interactions/0/duration_ms must be"
                        + " a number of milliseconds, 0 or more, not \"soon\"");
    }

    @Test
    void a_value_json_cannot_hold_is_refused_where_it_is() throws Exception {
        Path infinite = file(String.format(ONE, "[1, 1e400]", "5"));
        assertThatThrownBy(() -> Cassette.read(infinite))
                .hasMessage(
                        infinite + ": /interactions/0/output/1 is the" + " number Infinity, which JSON cannot hold");

        Path half = file(String.format(ONE, "\"\\ud83d\"", "5"));
        assertThatThrownBy(() -> Cassette.read(half))
                .hasMessage(half + ": /interactions/0/output is text with a lone"
                        + " surrogate \\uD83D at character 0, which JSON cannot hold");
    }

    @Test
    void a_file_over_the_size_limit_is_refused_before_it_is_read() throws Exception {
        Path c = dir.resolve("big.json");
        try (Writer out = Files.newBufferedWriter(c, StandardCharsets.UTF_8)) {
            out.write("{\"format\": \"planvm-cassette/1\", \"interactions\": [{\"type\": \"tool\", \"tool\": \"t\","
                    + " \"params\": {}, \"output\": \"");
            String chunk = "x".repeat(1 << 20);
            for (int i = 0; i < 65; i++) {
                out.write(chunk);
            }
            out.write("\"}]}");
        }

        assertThatThrownBy(() -> Cassette.read(c))
                .isInstanceOf(CassetteException.class)
                .hasMessage(c + ": the cassette is 68,157,548 bytes; the limit is 64 MiB");
    }

    @Test
    void a_sound_cassette_still_reads() throws Exception {
        Cassette cassette = Cassette.read(file(String.format(ONE, "{\"a\": [\"\\ud83d\\ude00\", 1e300]}", "12.5")));
        assertThat(cassette.interactions()).hasSize(1);
        assertThat(cassette.interactions().get(0).durationMs()).isEqualTo(12);
    }
}
