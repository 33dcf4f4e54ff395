package dev.planvm.instructions.expr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonText;
import java.util.Locale;

/** Builtins over text: str, json, lower, upper, trim, split. */
final class TextFunctions {

    private static final ObjectReader JSON = new ObjectMapper()
            .reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private TextFunctions() {
    }

    static JsonNode str(JsonNode x) {
        return x.isTextual() ? x : TextNode.valueOf(Interpolator.render(x));
    }

    static JsonNode json(JsonNode x) {
        if (!x.isTextual()) {
            return x;
        }
        String text = x.textValue().strip();
        if (!text.isEmpty() && !text.startsWith("`")) {
            try {
                JsonNode parsed = JSON.readTree(text);
                if (parsed != null && !parsed.isMissingNode()) {
                    return parsed;
                }
            } catch (JsonProcessingException e) {
                // not JSON as a whole: look for a fenced or embedded object below
            }
        }
        return JsonText.parse(text).orElseThrow(
                () -> new EvaluationException("json() cannot parse " + Values.quote(x.textValue()) + " as JSON"));
    }

    static JsonNode lower(JsonNode s) {
        return TextNode.valueOf(text("lower", s).toLowerCase(Locale.ROOT));
    }

    static JsonNode upper(JsonNode s) {
        return TextNode.valueOf(text("upper", s).toUpperCase(Locale.ROOT));
    }

    static JsonNode trim(JsonNode s) {
        return TextNode.valueOf(text("trim", s).strip());
    }

    /** The texts between occurrences of {@code sep}; each code point when {@code sep} is empty. */
    static JsonNode split(JsonNode s, JsonNode sep) {
        String text = text("split", s);
        if (!sep.isTextual()) {
            throw Builtins.needs("split", "text as its separator", sep);
        }
        String separator = sep.textValue();
        BuildLimits.elements("split()", separator.isEmpty() ? text.codePointCount(0, text.length()) : occurrences(text, separator) + 1);
        ArrayNode parts = JsonNodeFactory.instance.arrayNode();
        if (separator.isEmpty()) {
            text.codePoints().forEach(cp -> parts.add(new String(Character.toChars(cp))));
            return parts;
        }
        int from = 0;
        int at = text.indexOf(separator);
        while (at >= 0) {
            parts.add(text.substring(from, at));
            from = at + separator.length();
            at = text.indexOf(separator, from);
        }
        parts.add(text.substring(from));
        return parts;
    }

    private static long occurrences(String text, String separator) {
        long count = 0;
        for (int at = text.indexOf(separator); at >= 0; at = text.indexOf(separator, at + separator.length())) {
            count++;
        }
        return count;
    }

    private static String text(String function, JsonNode s) {
        if (!s.isTextual()) {
            throw Builtins.needs(function, "text", s);
        }
        return s.textValue();
    }
}
