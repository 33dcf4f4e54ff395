package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;

/**
 * Writing a document's own text into plan strings: what a document says is data, never an expression,
 * so every {@code ${} in it is written {@code $${}; and templates of text and {@code ${...}} expressions.
 */
final class Text {

    private Text() {}

    /** {@code text} as a plan string that means exactly {@code text}. */
    static String literal(String text) {
        return text.replace("${", "$${");
    }

    /** A copy of {@code value} whose every string means itself ({@link #literal}). */
    static JsonNode literal(JsonNode value) {
        if (value.isTextual()) {
            return TextNode.valueOf(literal(value.asText()));
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> field : value.properties()) {
                copy.set(field.getKey(), literal(field.getValue()));
            }
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(element -> copy.add(literal(element)));
            return copy;
        }
        return value;
    }

    /** {@code text} as a string literal of the expression language. */
    static String quoted(String text) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\n");
                default -> sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    /** A plan string of literal text and {@code ${...}} expressions, in order. */
    static final class Template {
        private final StringBuilder sb = new StringBuilder();

        Template text(String text) {
            sb.append(literal(text));
            return this;
        }

        Template expression(String expression) {
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) == '$') {
                sb.setLength(sb.length() - 1); // "$${" would be read as a literal "${"
                sb.append("${'$'}");
            }
            sb.append("${").append(expression).append('}');
            return this;
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }
}
