package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A secret is redacted in every form a message or a document may hold it: whole, cut at either
 * end (a quote shortened for a message), each line of a multi-line secret, and JSON-escaped.
 */
class RedactorTest {

    private static final String TOKEN = "tok-9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e";
    private final Redactor redactor = Redactor.of(Map.of("TOKEN", TOKEN));

    @Test
    void a_whole_secret_is_replaced_by_its_placeholder() {
        assertThat(redactor.redact("Bearer " + TOKEN + ".")).isEqualTo("Bearer «secret:TOKEN».");
    }

    @Test
    void a_message_that_quotes_only_the_start_of_a_secret_does_not_keep_it() {
        String quoted = "'*' needs numbers, got text '" + TOKEN.substring(0, 40) + "...'";
        assertThat(redactor.redact(quoted)).isEqualTo("'*' needs numbers, got text '«secret:TOKEN»...'");
    }

    @Test
    void a_message_that_quotes_only_the_end_of_a_secret_does_not_keep_it() {
        String quoted = "…" + TOKEN.substring(TOKEN.length() - 12) + "\" was not expected";
        assertThat(redactor.redact(quoted)).isEqualTo("…«secret:TOKEN»\" was not expected");
    }

    @Test
    void fewer_than_eight_characters_in_common_with_a_secret_are_ordinary_text() {
        assertThat(redactor.redact("tok-9f8 and 3b2a1f0e are fine")).isEqualTo("tok-9f8 and «secret:TOKEN» are fine");
        assertThat(redactor.redact("tok-9f8 and 2a1f0e are fine")).isEqualTo("tok-9f8 and 2a1f0e are fine");
    }

    @Test
    void each_line_of_a_multi_line_secret_is_redacted_on_its_own() {
        String pem = "-----BEGIN KEY-----\nMIIEvQIBADANBgkqhkiG9w0B\nAQEFAASCBKcwggSjAgEAAoIB\n-----END KEY-----";
        Redactor keys = Redactor.of(Map.of("KEY", pem));
        String oneLine = "line 2 of the key is MIIEvQIBADANBgkqhkiG9w0B, line 3 AQEFAASCBKcwggSjAgEAAoIB";
        assertThat(keys.redact(oneLine)).isEqualTo("line 2 of the key is «secret:KEY», line 3 «secret:KEY»");
        assertThat(keys.redact("key: " + pem)).isEqualTo("key: «secret:KEY»");
    }

    @Test
    void the_json_escaped_form_of_a_secret_is_redacted() throws Exception {
        String secret = "pa\"ss\\word\nline-two-of-it";
        Redactor json = Redactor.of(Map.of("PW", secret));
        String document = new ObjectMapper().writeValueAsString(Map.of("password", secret));
        assertThat(document).doesNotContain(secret);
        assertThat(json.redact(document)).isEqualTo("{\"password\":\"«secret:PW»\"}");
    }

    @Test
    void json_values_are_redacted_in_texts_and_keys() {
        assertThat(redactor.redact(TextNode.valueOf("x " + TOKEN.substring(0, 20))))
                .isEqualTo(TextNode.valueOf("x «secret:TOKEN»"));
    }

    @Test
    void no_start_or_end_of_eight_characters_of_any_secret_survives_in_random_texts() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 2_000; round++) {
            Map<String, String> secrets = new java.util.LinkedHashMap<>();
            for (int s = 0; s < 1 + random.nextInt(4); s++) {
                secrets.put("S" + s, randomText(random, 8 + random.nextInt(40), "abcx\n\"'"));
            }
            Redactor redactor = Redactor.of(secrets);
            StringBuilder text = new StringBuilder();
            for (int piece = 0; piece < 6; piece++) {
                text.append(randomText(random, random.nextInt(12), "abcxyz "));
                String secret = secrets.get("S" + random.nextInt(secrets.size()));
                int from = random.nextBoolean() ? 0 : random.nextInt(secret.length() - 7);
                int to = from == 0 ? 8 + random.nextInt(secret.length() - 7) : secret.length();
                text.append(secret, from, to);
            }
            String redacted = redactor.redact(text.toString());
            for (String secret : secrets.values()) {
                assertThat(redacted)
                        .as("%s in %s", secret, text)
                        .doesNotContain(secret.substring(0, 8))
                        .doesNotContain(secret.substring(secret.length() - 8));
            }
        }
    }

    private static String randomText(java.util.Random random, int length, String alphabet) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString();
    }

    @Test
    void a_secret_shorter_than_eight_characters_is_refused_as_too_short_to_redact_safely() {
        assertThat(Redactor.MIN_LENGTH).isEqualTo(8);
        assertThatThrownBy(() -> Redactor.of(Map.of("PIN", "1234567")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "the secret 'PIN' is shorter than 8 characters, too short to keep out of traces and logs reliably");
        assertThat(Redactor.of(Map.of("PIN", "12345678")).redact("pin 12345678"))
                .isEqualTo("pin «secret:PIN»");
    }

    @Test
    void two_secrets_combine_and_the_longer_wins_where_they_overlap() {
        Redactor both = redactor.and(Redactor.of(Map.of("SHORT", TOKEN.substring(0, 10))));
        assertThat(both.redact(TOKEN + " " + TOKEN.substring(0, 10))).isEqualTo("«secret:TOKEN» «secret:SHORT»");
    }

    @Test
    void json_objects_and_arrays_are_copied_with_their_keys_and_texts_redacted_and_other_values_kept() {
        com.fasterxml.jackson.databind.node.JsonNodeFactory nodes =
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
        com.fasterxml.jackson.databind.node.ObjectNode value = nodes.objectNode();
        value.put(TOKEN, "key");
        value.putArray("list").add("Bearer " + TOKEN).add(42).add(true);
        value.put("n", 3);
        com.fasterxml.jackson.databind.JsonNode redacted = redactor.redact(value);
        assertThat(redacted)
                .hasToString("{\"«secret:TOKEN»\":\"key\",\"list\":[\"Bearer «secret:TOKEN»\",42,true],\"n\":3}");
        assertThat(value.has(TOKEN)).as("the original is untouched").isTrue();
        TextNode plain = TextNode.valueOf("nothing secret here");
        assertThat(redactor.redact(plain)).isSameAs(plain);
        assertThat(redactor.redact((com.fasterxml.jackson.databind.JsonNode) null))
                .isNull();
        assertThat(Redactor.none().redact((com.fasterxml.jackson.databind.JsonNode) value))
                .isSameAs(value);
    }

    @Test
    void no_secrets_is_the_empty_redactor_and_adding_it_changes_nothing() {
        assertThat(Redactor.of(Map.of())).isSameAs(Redactor.none());
        assertThat(Redactor.none().isEmpty()).isTrue();
        assertThat(redactor.isEmpty()).isFalse();
        assertThat(redactor.and(Redactor.none())).isSameAs(redactor);
        assertThat(Redactor.none().redact("text " + TOKEN)).isEqualTo("text " + TOKEN);
        assertThat(redactor.redact((String) null)).isNull();
    }

    @Test
    void a_line_of_a_multi_line_secret_is_redacted_alone_from_eight_characters_on() {
        Redactor pem = Redactor.of(Map.of("KEY", "abcdefgh\n1234567\nsecond-line-long"));
        assertThat(pem.redact("x abcdefgh y")).isEqualTo("x «secret:KEY» y");
        assertThat(pem.redact("x 1234567 y"))
                .as("seven characters are ordinary text")
                .isEqualTo("x 1234567 y");
    }
}
