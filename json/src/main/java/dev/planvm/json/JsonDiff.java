package dev.planvm.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A readable difference of two JSON values ({@link JsonEquality}: numbers by value), one line per
 * JSON pointer ({@code /final_answer/items/0: expected 1, got 2}). Two texts that span lines or
 * are long are shown as a line diff instead ({@link JsonDiffText}).
 */
public final class JsonDiff {

    /** At most this many pointer lines; then one line says how many more there are. */
    static final int MAX_LINES = 20;
    /** Texts longer than this (or with a line break) are compared line by line. */
    static final int SHORT_TEXT = 80;

    private static final int BRIEF_CHARS = 120;

    private JsonDiff() {}

    /**
     * The differences between {@code expected} and {@code actual}, located below {@code pointer}
     * (e.g. {@code /final_answer}); empty when they are {@link JsonEquality#equal}.
     */
    public static List<String> diff(String pointer, JsonNode expected, JsonNode actual) {
        return diff(pointer, expected, actual, new Style("expected", MAX_LINES, true));
    }

    /**
     * The differences between {@code expected} and {@code actual} on one line each, for a one-line
     * message: the expected side is called {@code expectedName} ({@code /params/query: recorded "a",
     * got "b"}), long texts are shown cut like any value, and at most {@code maxLines} differences
     * are listed before the line saying how many more there are.
     */
    public static List<String> inline(JsonNode expected, JsonNode actual, String expectedName, int maxLines) {
        return diff("", expected, actual, new Style(expectedName, maxLines, false));
    }

    /** How many differences {@link #diff} finds (each leaf, missing or unexpected member counts once). */
    public static int count(JsonNode expected, JsonNode actual) {
        Found found = new Found(new Style("expected", 0, false));
        walk("", expected, actual, found);
        return found.count;
    }

    /** How differences are worded: the expected side's name, how many are listed, long texts as a line diff or not. */
    private record Style(String expectedName, int maxLines, boolean textAsLines) {}

    private static List<String> diff(String pointer, JsonNode expected, JsonNode actual, Style style) {
        Found found = new Found(style);
        walk(pointer, expected, actual, found);
        int more = found.count - style.maxLines();
        if (more > 0) {
            found.lines.add("… and " + more + " more difference" + (more == 1 ? "" : "s"));
        }
        return found.lines;
    }

    /** The lines of the first {@link Style#maxLines()} differences, and how many there are in all. */
    private static final class Found {
        private final Style style;
        private final List<String> lines = new ArrayList<>();
        private int count;

        Found(Style style) {
            this.style = style;
        }

        void add(List<String> difference) {
            count++;
            if (count <= style.maxLines()) {
                lines.addAll(difference);
            }
        }
    }

    private static void walk(String at, JsonNode expected, JsonNode actual, Found found) {
        if (JsonEquality.equal(expected, actual)) {
            return;
        }
        String name = found.style.expectedName();
        if (expected.isObject() && actual.isObject()) {
            for (Map.Entry<String, JsonNode> field : expected.properties()) {
                String child = at + "/" + JsonPointers.escape(field.getKey());
                if (actual.has(field.getKey())) {
                    walk(child, field.getValue(), actual.get(field.getKey()), found);
                } else {
                    found.add(List.of(child + ": missing (" + name + " " + brief(field.getValue()) + ")"));
                }
            }
            for (Map.Entry<String, JsonNode> field : actual.properties()) {
                if (!expected.has(field.getKey())) {
                    found.add(List.of(at + "/" + JsonPointers.escape(field.getKey()) + ": unexpected "
                            + brief(field.getValue())));
                }
            }
            return;
        }
        if (expected.isArray() && actual.isArray()) {
            if (expected.size() != actual.size()) {
                found.add(List.of(
                        at + ": " + name + " " + elements(expected.size()) + ", got " + elements(actual.size())));
            }
            for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
                String child = at + "/" + i;
                if (i >= actual.size()) {
                    found.add(List.of(child + ": missing (" + name + " " + brief(expected.get(i)) + ")"));
                } else if (i >= expected.size()) {
                    found.add(List.of(child + ": unexpected " + brief(actual.get(i))));
                } else {
                    walk(child, expected.get(i), actual.get(i), found);
                }
            }
            return;
        }
        if (found.style.textAsLines()
                && expected.isTextual()
                && actual.isTextual()
                && (isLong(expected.textValue()) || isLong(actual.textValue()))) {
            List<String> text = new ArrayList<>();
            text.add(at + ": text differs (- " + name + ", + actual):");
            JsonDiffText.diff(expected.textValue(), actual.textValue()).forEach(line -> text.add("  " + line));
            found.add(text);
            return;
        }
        found.add(List.of(at + ": " + name + " " + brief(expected) + ", got " + brief(actual)));
    }

    private static boolean isLong(String text) {
        return text.length() > SHORT_TEXT || text.indexOf('\n') >= 0;
    }

    private static String elements(int n) {
        return n + " element" + (n == 1 ? "" : "s");
    }

    /** Compact JSON, cut after {@value #BRIEF_CHARS} characters. */
    public static String brief(JsonNode value) {
        String text = value.toString();
        return text.length() > BRIEF_CHARS ? text.substring(0, BRIEF_CHARS) + "…" : text;
    }
}
