package dev.planvm.dialects.internal.ppe;

import java.util.ArrayList;
import java.util.List;

/**
 * A JavaScript regular expression of literal text as a planvm expression, for the scripts' regex patterns. planvm
 * runs no regex engine: a pattern made of literal text (escaped metacharacters included), {@code ^} and {@code $}
 * anchors and {@code |} alternatives, with the flags {@code i} (case-insensitive: both sides in lower case),
 * {@code g}, {@code s}, {@code u} and {@code y}-less {@code d} (no effect on a test), becomes {@code contains} and
 * {@code split} tests, linear in the text and with no backtracking at all. Anything else (classes, quantifiers,
 * groups, {@code .}) is refused with what it is, when the script compiles.
 */
final class RegexText {

    private static final String META = "\\^$.|?*+()[]{}/";

    /** One alternative: its literal text and its anchors. */
    private record Alternative(String text, boolean start, boolean end) {}

    private RegexText() {}

    /**
     * A boolean expression: whether the text {@code subject} (a planvm expression of text) matches {@code /source/
     * flags}.
     *
     * @throws IllegalArgumentException naming the construct planvm does not match
     */
    static String test(String source, String flags, String subject) {
        for (char f : flags.toCharArray()) {
            if ("igsud".indexOf(f) < 0) {
                throw new IllegalArgumentException(
                        "the regular-expression flag '" + f + "' is not supported (i, g, s, u)");
            }
        }
        boolean fold = flags.indexOf('i') >= 0;
        String s = fold ? "lower(" + subject + ")" : subject;
        List<String> tests = new ArrayList<>();
        for (Alternative a : alternatives(source)) {
            String text = Templates.quote(fold ? a.text().toLowerCase(java.util.Locale.ROOT) : a.text());
            if (a.text().isEmpty()) {
                tests.add(a.start() && a.end() ? s + " == ''" : "true");
            } else if (a.start() && a.end()) {
                tests.add(s + " == " + text);
            } else if (a.start()) {
                tests.add("contains(" + s + ", " + text + ") && split(" + s + ", " + text + ")[0] == ''");
            } else if (a.end()) {
                tests.add("contains(" + s + ", " + text + ") && split(" + s + ", " + text + ")[len(split(" + s + ", "
                        + text + ")) - 1] == ''");
            } else {
                tests.add("contains(" + s + ", " + text + ")");
            }
        }
        return tests.size() == 1 ? tests.get(0) : "(" + String.join(") || (", tests) + ")";
    }

    private static List<Alternative> alternatives(String source) {
        List<Alternative> all = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        boolean start = false;
        boolean end = false;
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (end && c != '|') {
                throw new IllegalArgumentException("'$' in the middle of a regular expression is not supported");
            }
            if (c == '\\') {
                if (i + 1 >= source.length()) {
                    throw new IllegalArgumentException("the regular expression ends with '\\'");
                }
                char next = source.charAt(++i);
                if (META.indexOf(next) < 0 && next != '\\' && next != '-') {
                    throw new IllegalArgumentException("the regular-expression escape '\\" + next
                            + "' is not supported: planvm matches literal" + " text, ^, $ and |");
                }
                text.append(next);
            } else if (c == '^' && text.isEmpty() && !start) {
                start = true;
            } else if (c == '$') {
                end = true;
            } else if (c == '|') {
                all.add(new Alternative(text.toString(), start, end));
                text.setLength(0);
                start = false;
                end = false;
            } else if (META.indexOf(c) >= 0) {
                throw new IllegalArgumentException("'" + c
                        + "' in a regular expression is not supported: planvm matches literal text, ^, $ and" + " |");
            } else {
                text.append(c);
            }
        }
        all.add(new Alternative(text.toString(), start, end));
        return all;
    }
}
