package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonPointersTest {

    @Test
    void pointer_tokens_escape_tilde_before_slash() {
        assertThat(JsonPointers.escape("~1/")).isEqualTo("~01~1");
    }

    @Test
    void appending_escapes_the_token_and_keeps_indexes_as_numbers() {
        assertThat(JsonPointers.append("/a", "b/c")).isEqualTo("/a/b~1c");
        assertThat(JsonPointers.append("/a", 3)).isEqualTo("/a/3");
    }
}
