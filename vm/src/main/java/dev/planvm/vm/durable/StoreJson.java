package dev.planvm.vm.durable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.Redactor;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * How the store writes and reads JSON values: every value written goes through the store's redactor first (a
 * secret never reaches the disk), and a value read back is parsed within the store's JSON limits.
 */
final class StoreJson {

    static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private final Redactor redactor;

    StoreJson(Redactor redactor) {
        this.redactor = redactor;
    }

    /** {@code node} redacted, as the store keeps it (large values as blob references: {@link Blobs#write}); null for null. */
    String write(JsonNode node) {
        return node == null ? null : Blobs.write(redactor.redact(node));
    }

    /** {@code node} redacted (a step's writes and trace entry, which the store externalizes itself). */
    JsonNode redact(JsonNode node) {
        return redactor.redact(node);
    }

    /** {@code text} redacted (a reviewer's reason). */
    String redact(String text) {
        return redactor.redact(text);
    }

    /** A stored JSON value, parsed; null for null. */
    static JsonNode parse(String json) {
        try {
            return json == null ? null : MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new StoreException("the run store holds malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The time now as the store writes it (ISO-8601, milliseconds). */
    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /** {@code bytes} as a limit is said: {@code 256 MiB}, or the exact count. */
    static String mebibytes(long bytes) {
        return bytes % (1024 * 1024) == 0
                ? bytes / (1024 * 1024) + " MiB"
                : String.format(Locale.ROOT, "%,d bytes", bytes);
    }
}
