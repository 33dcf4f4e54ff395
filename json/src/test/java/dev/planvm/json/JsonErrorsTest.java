package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonErrorsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonProcessingException parsing(String text) {
        return catchThrowableOfType(JsonProcessingException.class, () -> MAPPER.readTree(text));
    }

    @Test
    void a_source_named_inside_the_message_becomes_its_line_and_column() {
        JsonProcessingException e = parsing("{\"a\": [}");

        assertThat(e.getOriginalMessage()).contains("[Source: ");
        assertThat(JsonErrors.malformed(e))
                .isEqualTo("malformed JSON at line 1, column 8: Unexpected close marker '}': expected ']'"
                        + " (for Array starting at line 1, column 7)")
                .doesNotContain("Source", "REDACTED", "StreamReadFeature");
    }

    @Test
    void a_whole_exception_message_keeps_its_first_line_only() {
        JsonProcessingException e = parsing("{ bad");

        assertThat(e.getMessage()).contains("\n");
        assertThat(JsonErrors.clean(e.getMessage()))
                .isEqualTo("Unexpected character ('b' (code 98)): was expecting double-quote to start field name");
    }

    @Test
    void long_messages_are_cut_and_missing_ones_named() {
        assertThat(JsonErrors.clean("x".repeat(1000))).hasSize(301).endsWith("…");
        assertThat(JsonErrors.clean(null)).isEqualTo("invalid JSON");
    }
}
