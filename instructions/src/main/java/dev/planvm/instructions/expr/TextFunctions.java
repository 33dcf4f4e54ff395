package dev.planvm.instructions.expr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonText;
import dev.planvm.json.JsonValues;
import java.util.Locale;

/** Builtins over text: str, json, lower, upper, trim, split. */
final class TextFunctions {

    /** Case mapping can make text longer: at most three characters for one ({@code 'ﬃ'} becomes {@code "FFI"}). */
    private static final int MAX_CASE_GROWTH = 3;

    private TextFunctions() {}

    /** {@code x} rendered as text, refused before rendering when it would be longer than the build ceiling. */
    static JsonNode str(JsonNode x) {
        if (x.isTextual()) {
            return x;
        }
        BuildLimits.text("str()", RenderedLength.of(x, BuildLimits.MAX_TEXT));
        return TextNode.valueOf(Interpolator.render(x));
    }

    /**
     * Text parsed as JSON: the whole text as any JSON value, else the object or array it holds
     * ({@link JsonText}). At most {@link JsonValues#MAX_TOKENS} tokens are read, and a value JSON
     * cannot hold ({@code 1e400}, a lone surrogate) is refused here, where it would be made.
     */
    static JsonNode json(JsonNode x) {
        if (!x.isTextual()) {
            return x;
        }
        String text = x.textValue().strip();
        if (!text.isEmpty() && !text.startsWith("`")) {
            try {
                JsonNode parsed = JsonValues.READER.readTree(text);
                if (parsed != null && !parsed.isMissingNode()) {
                    return holdable(parsed);
                }
            } catch (StreamConstraintsException e) {
                throw new EvaluationException(
                        "json() would build more than " + String.format(Locale.ROOT, "%,d", JsonValues.MAX_TOKENS)
                                + " JSON tokens or nest deeper than 1,000 levels; one expression cannot build more");
            } catch (JsonProcessingException e) {
                // not JSON as a whole: look for a fenced or embedded object below
            }
        }
        return JsonText.parse(text)
                .orElseThrow(() ->
                        new EvaluationException("json() cannot parse " + Values.quote(x.textValue()) + " as JSON"));
    }

    private static JsonNode holdable(JsonNode parsed) {
        JsonValues.problem(parsed).ifPresent(problem -> {
            throw new EvaluationException("json() read a value JSON cannot hold: " + problem);
        });
        return parsed;
    }

    static JsonNode lower(JsonNode s) {
        String text = text("lower", s);
        caseMapped("lower()", text);
        return TextNode.valueOf(CaseMapping.lower(text));
    }

    static JsonNode upper(JsonNode s) {
        String text = text("upper", s);
        caseMapped("upper()", text);
        return TextNode.valueOf(CaseMapping.upper(text));
    }

    /** Refuses case mapping that could build more than the ceiling, counting exactly only when it might. */
    private static void caseMapped(String function, String text) {
        if ((long) text.length() * MAX_CASE_GROWTH <= BuildLimits.MAX_TEXT) {
            return;
        }
        long length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80 || Character.isSurrogate(c)) {
                length++;
            } else {
                String one = String.valueOf(c);
                length += Math.max(
                        one.toUpperCase(Locale.ROOT).length(),
                        one.toLowerCase(Locale.ROOT).length());
            }
        }
        BuildLimits.text(function, length);
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
        BuildLimits.elements(
                "split()",
                separator.isEmpty() ? text.codePointCount(0, text.length()) : occurrences(text, separator) + 1);
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
