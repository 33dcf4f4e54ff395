package dev.planvm.tools;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps secret values out of everything planvm writes down: traces, the run store, cassettes,
 * error messages and logs. Every occurrence of a secret inside any text is replaced by
 * {@code «secret:NAME»}, in each form a text may hold it:
 * <ul>
 * <li>the whole value;</li>
 * <li>its JSON-escaped form (quotes, backslashes and control characters escaped, as in a JSON
 *     document or a log line that holds one);</li>
 * <li>each line of a multi-line value on its own (lines of at least {@value #MIN_LENGTH} characters);</li>
 * <li>a cut form: a run of at least {@value #MIN_LENGTH} characters that starts or ends like one of
 *     the forms above — what remains when a message shortens a quoted value ({@code 'tok-9f8e...'}).</li>
 * </ul>
 * Values shorter than {@value #MIN_LENGTH} characters are refused: they cannot be told apart from
 * ordinary text. What is not caught: a secret transformed (base64, upper case, reversed), or split
 * into pieces shorter than {@value #MIN_LENGTH} characters or spread over several values.
 * Immutable and thread-safe.
 */
public final class Redactor {

    /** The smallest secret value that can be redacted reliably. */
    public static final int MIN_LENGTH = 8;

    private static final Redactor NONE = new Redactor(Map.of(), List.of());

    /** Secret name to value, as given. */
    private final Map<String, String> secrets;
    /** Every form of every secret. */
    private final List<Form> forms;
    /** Finds runs that start like a form (whole forms and forms cut at the end). */
    private final FormScanner heads;
    /** Finds runs that end like a form (forms cut at the start). */
    private final FormScanner tails;

    private Redactor(Map<String, String> secrets, List<Form> forms) {
        this.secrets = secrets;
        this.forms = forms;
        this.heads = new FormScanner(forms, true);
        this.tails = new FormScanner(forms, false);
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
        if (secrets.isEmpty()) {
            return NONE;
        }
        List<Form> forms = new ArrayList<>();
        secrets.forEach((name, value) -> {
            if (value.length() < MIN_LENGTH) {
                throw new IllegalArgumentException("the secret '" + name + "' is shorter than " + MIN_LENGTH
                        + " characters, too short to keep out of traces and logs reliably");
            }
            String placeholder = "«secret:" + name + "»";
            forms.add(new Form(value, placeholder));
            String escaped = new String(JsonStringEncoder.getInstance().quoteAsString(value));
            if (!escaped.equals(value)) {
                forms.add(new Form(escaped, placeholder));
            }
            String[] lines = value.split("\r?\n|\r");
            if (lines.length > 1) {
                for (String line : lines) {
                    if (line.strip().length() >= MIN_LENGTH) {
                        forms.add(new Form(line, placeholder));
                    }
                }
            }
        });
        return new Redactor(Map.copyOf(secrets), List.copyOf(forms));
    }

    /** A redactor with the secrets of both (the other's value wins for a name in both). */
    public Redactor and(Redactor other) {
        if (other.secrets.isEmpty()) {
            return this;
        }
        Map<String, String> both = new LinkedHashMap<>(secrets);
        both.putAll(other.secrets);
        return of(both);
    }

    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    /** The names of the secrets (never their values): the variables a run is given as secrets are among them. */
    public java.util.Set<String> names() {
        return secrets.keySet();
    }

    public String redact(String text) {
        if (text == null || forms.isEmpty() || text.length() < MIN_LENGTH) {
            return text;
        }
        return tails.redact(heads.redact(text));
    }

    /** A copy of {@code value} with every secret in its texts (and keys) replaced; the same node when nothing changes. */
    public JsonNode redact(JsonNode value) {
        if (value == null || forms.isEmpty()) {
            return value;
        }
        if (value.isTextual()) {
            String text = value.asText();
            String redacted = redact(text);
            return redacted.equals(text) ? value : TextNode.valueOf(redacted);
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            value.properties().forEach(field -> copy.set(redact(field.getKey()), redact(field.getValue())));
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(element -> copy.add(redact(element)));
            return copy;
        }
        return value;
    }
}
