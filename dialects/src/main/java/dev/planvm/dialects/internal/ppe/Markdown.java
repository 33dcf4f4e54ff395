package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * A value as the reference's {@code toMarkdown} template filter writes it: an object as {@code * `key`: value}
 * lines, a list as {@code - item} lines, each nested value two spaces further in; text as it is.
 */
final class Markdown {

    private Markdown() {}

    static String of(JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(value, "", out);
        return out.toString();
    }

    private static void write(JsonNode value, String indent, StringBuilder out) {
        if (value.isObject()) {
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                line(indent + "* `" + e.getKey() + "`:", e.getValue(), indent, out);
            }
        } else if (value.isArray()) {
            for (JsonNode item : value) {
                line(indent + "-", item, indent, out);
            }
        } else {
            out.append(value.isTextual() ? value.asText() : value.toString());
        }
    }

    private static void line(String head, JsonNode value, String indent, StringBuilder out) {
        if (out.length() > 0) {
            out.append('\n');
        }
        out.append(head);
        if (value.isContainerNode() && !value.isEmpty()) {
            out.append('\n');
            int mark = out.length();
            write(value, indent + "  ", out);
            if (out.length() > mark && out.charAt(mark) == '\n') {
                out.deleteCharAt(mark);
            }
        } else {
            out.append(' ').append(value.isTextual() ? value.asText() : value.toString());
        }
    }
}
