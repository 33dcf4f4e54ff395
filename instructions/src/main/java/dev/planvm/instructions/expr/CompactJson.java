package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** Compact JSON text of a value, like JavaScript's {@code JSON.stringify}: numbers JS-style. */
final class CompactJson {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private CompactJson() {}

    static String write(JsonNode value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb);
        return sb.toString();
    }

    static void write(JsonNode value, StringBuilder sb) {
        if (value.isTextual()) {
            quote(value.textValue(), sb);
        } else if (value.isNumber()) {
            sb.append(JsNumbers.render(value));
        } else if (value.isBoolean()) {
            sb.append(value.booleanValue());
        } else if (value.isObject()) {
            writeObject(value, sb);
        } else if (value.isArray()) {
            writeArray(value, sb);
        } else if (value.isNull() || value.isMissingNode()) {
            sb.append("null");
        } else {
            quote(value.asText(), sb);
        }
    }

    private static void writeObject(JsonNode object, StringBuilder sb) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            quote(field.getKey(), sb);
            sb.append(':');
            write(field.getValue(), sb);
        }
        sb.append('}');
    }

    private static void writeArray(JsonNode array, StringBuilder sb) {
        sb.append('[');
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            write(array.get(i), sb);
        }
        sb.append(']');
    }

    private static void quote(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c >= 0x20) {
                sb.append(c);
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\b') {
                sb.append("\\b");
            } else if (c == '\f') {
                sb.append("\\f");
            } else {
                sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        sb.append('"');
    }
}
