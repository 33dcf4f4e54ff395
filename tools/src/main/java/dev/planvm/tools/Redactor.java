package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keeps secret values out of everything planvm writes down: traces, the run store, cassettes,
 * error messages and logs. Every occurrence of a secret value (of 4 characters or more) inside any
 * text is replaced by {@code «secret:NAME»}; shorter values cannot be told apart from ordinary
 * text and are refused. Immutable and thread-safe.
 */
public final class Redactor {

    /** The smallest secret value that can be redacted reliably. */
    public static final int MIN_LENGTH = 4;

    private static final Redactor NONE = new Redactor(Map.of());

    /** value → placeholder, longest values first (so a secret that contains another is replaced whole). */
    private final Map<String, String> placeholders;

    private Redactor(Map<String, String> placeholders) {
        this.placeholders = placeholders;
    }

    /** No secrets: every method returns its argument. */
    public static Redactor none() {
        return NONE;
    }

    /**
     * @param secrets secret name to value
     * @throws IllegalArgumentException for a value shorter than {@link #MIN_LENGTH}
     */
    public static Redactor of(Map<String, String> secrets) {
        Map<String, String> byValue = new LinkedHashMap<>();
        secrets.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getValue().length()).reversed())
                .forEach(e -> {
                    if (e.getValue().length() < MIN_LENGTH) {
                        throw new IllegalArgumentException("the secret '" + e.getKey() + "' is shorter than " + MIN_LENGTH
                                + " characters, too short to keep out of traces and logs reliably");
                    }
                    byValue.put(e.getValue(), "«secret:" + e.getKey() + "»");
                });
        return byValue.isEmpty() ? NONE : new Redactor(Map.copyOf(byValue));
    }

    /** A redactor with the secrets of both. */
    public Redactor and(Redactor other) {
        if (other.placeholders.isEmpty()) {
            return this;
        }
        Map<String, String> secrets = new LinkedHashMap<>();
        placeholders.forEach((value, placeholder) -> secrets.put(name(placeholder), value));
        other.placeholders.forEach((value, placeholder) -> secrets.put(name(placeholder), value));
        return of(secrets);
    }

    public boolean isEmpty() {
        return placeholders.isEmpty();
    }

    public String redact(String text) {
        if (text == null || placeholders.isEmpty()) {
            return text;
        }
        String result = text;
        for (Map.Entry<String, String> secret : sortedByLength()) {
            if (result.contains(secret.getKey())) {
                result = result.replace(secret.getKey(), secret.getValue());
            }
        }
        return result;
    }

    /** A copy of {@code value} with every secret in its texts (and keys) replaced; the same node when nothing changes. */
    public JsonNode redact(JsonNode value) {
        if (value == null || placeholders.isEmpty()) {
            return value;
        }
        if (value.isTextual()) {
            String text = value.asText();
            String redacted = redact(text);
            return redacted.equals(text) ? value : TextNode.valueOf(redacted);
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            value.fields().forEachRemaining(field -> copy.set(redact(field.getKey()), redact(field.getValue())));
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(element -> copy.add(redact(element)));
            return copy;
        }
        return value;
    }

    private Iterable<Map.Entry<String, String>> sortedByLength() {
        return placeholders.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed())
                .toList();
    }

    private static String name(String placeholder) {
        return placeholder.substring("«secret:".length(), placeholder.length() - 1);
    }
}
