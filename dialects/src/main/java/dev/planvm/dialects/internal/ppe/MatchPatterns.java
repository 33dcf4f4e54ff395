package dev.planvm.dialects.internal.ppe;

import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The patterns of {@code $match} as boolean planvm expressions over a subject (a planvm expression), as seed 004
 * lists them: {@code "text"} or {@code 12} (equal), {@code > 12} (and {@code >= < <= == !=}), {@code 1 || 2} (any
 * of), ranges {@code 1..5}, {@code 1..<5}, {@code 1>..5}, regular expressions {@code /re/flags} ({@link RegexText}),
 * arrays {@code [literal, _, name]} (that length; {@code _} is any item, a name takes the item) and objects
 * {@code {key='a', key2=':pattern'}} (those keys; {@code ..} allows others). A test never fails on a subject of
 * another type: it is false, as JavaScript's comparisons are (a comparison with a number needs a number, with a
 * text a text; types are told apart by the subject's JSON form, {@code str([x])}).
 */
final class MatchPatterns {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern REGEX = Pattern.compile("/(.*)/([a-z]*)", Pattern.DOTALL);
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");

    private final Templates templates;
    private final Problems problems;

    MatchPatterns(Templates templates, Problems problems) {
        this.templates = templates;
        this.problems = problems;
    }

    /** Whether {@code subject} is text. */
    static String isText(String subject) {
        return startsWith(subject, "\"");
    }

    static String isObject(String subject) {
        return startsWith(subject, "{");
    }

    static String isArray(String subject) {
        return startsWith(subject, "[");
    }

    static String isNumber(String subject) {
        return "(!(" + isText(subject) + ") && !(" + isObject(subject) + ") && !(" + isArray(subject) + ") && "
                + subject + " != null && " + subject + " != true && " + subject + " != false)";
    }

    /** Whether the subject's JSON form, in an array ({@code [x]}), starts with {@code [} and {@code prefix}. */
    private static String startsWith(String subject, String prefix) {
        return "split(str([" + subject + "]), " + Templates.quote("[" + prefix) + ")[0] == ''";
    }

    /**
     * One pattern (without its leading {@code :}) as a boolean expression over {@code subject}; the names it takes
     * are put in {@code bindings} (name to expression). Null after a problem (reported).
     */
    String test(String pattern, String subject, Map<String, String> bindings, Pos pos) {
        Matcher regex = REGEX.matcher(pattern);
        if (regex.matches()) {
            try {
                return "(" + RegexText.test(regex.group(1), regex.group(2), "str(" + subject + ")") + ")";
            } catch (IllegalArgumentException e) {
                problems.error(pos, "$match pattern " + pattern + ": " + e.getMessage());
                return null;
            }
        }
        if (pattern.startsWith("[") && pattern.endsWith("]")) {
            return array(pattern.substring(1, pattern.length() - 1), subject, bindings, pos);
        }
        if (pattern.startsWith("{") && pattern.endsWith("}")) {
            return object(pattern.substring(1, pattern.length() - 1), subject, bindings, pos);
        }
        for (String op : List.of(">=", "<=", "==", "!=", ">", "<")) {
            if (pattern.startsWith(op)) {
                String operand = pattern.substring(op.length()).strip();
                String expr = templates.expression(operand, pos);
                return expr == null ? null : guard(operand, subject) + subject + " " + op + " " + expr;
            }
        }
        int range = pattern.indexOf("..");
        if (range > 0) {
            boolean openLow = pattern.charAt(range - 1) == '>';
            boolean openHigh = pattern.startsWith("<", range + 2);
            String lowText = pattern.substring(0, openLow ? range - 1 : range).strip();
            String low = templates.expression(lowText, pos);
            String high = templates.expression(pattern.substring(range + (openHigh ? 3 : 2)), pos);
            if (low == null || high == null) {
                return null;
            }
            return guard(lowText, subject) + subject + " " + (openLow ? ">" : ">=") + " " + low + " && " + subject + " "
                    + (openHigh ? "<" : "<=") + " " + high;
        }
        List<String> alternatives = new ArrayList<>();
        for (String alternative : pattern.split("\\|\\|")) {
            String literal = templates.expression(alternative, pos);
            if (literal == null) {
                return null;
            }
            alternatives.add(subject + " == " + literal);
        }
        return String.join(" || ", alternatives);
    }

    /** A comparison with a number literal needs a number, with a quoted text a text; else no guard. */
    private static String guard(String operand, String subject) {
        if (NUMBER.matcher(operand).matches()) {
            return isNumber(subject) + " && ";
        }
        if (operand.length() >= 2 && (operand.startsWith("'") || operand.startsWith("\""))) {
            return isText(subject) + " && ";
        }
        return "";
    }

    /** {@code [item, _, name]}: an array of that length whose items match. */
    private String array(String inner, String subject, Map<String, String> bindings, Pos pos) {
        List<String> items = inner.isBlank() ? List.of() : Invocations.split(inner, ",");
        StringBuilder test = new StringBuilder("(" + isArray(subject) + ") && len(" + subject + ") == " + items.size());
        for (int i = 0; i < items.size(); i++) {
            String item = items.get(i).strip();
            String element = subject + "[" + i + "]";
            String t = element(item, element, bindings, pos);
            if (t == null) {
                return null;
            }
            if (!t.isEmpty()) {
                test.append(" && (").append(t).append(")");
            }
        }
        return test.toString();
    }

    /** {@code {key='a', key2=':pattern', ..}}: an object with those keys (and no others without {@code ..}). */
    private String object(String inner, String subject, Map<String, String> bindings, Pos pos) {
        List<String> fields = inner.isBlank() ? List.of() : Invocations.split(inner, ",");
        Map<String, String> tests = new LinkedHashMap<>();
        boolean open = false;
        for (String field : fields) {
            String f = field.strip();
            if (f.equals("..")) {
                open = true;
                continue;
            }
            int eq = f.indexOf('=');
            String key = (eq < 0 ? f : f.substring(0, eq)).strip();
            if (!NAME.matcher(key).matches()) {
                problems.error(pos, "'" + f + "' is not a field of an object pattern: write key=value, key or ..");
                return null;
            }
            String t = eq < 0 ? "" : element(f.substring(eq + 1).strip(), subject + "." + key, bindings, pos);
            if (t == null) {
                return null;
            }
            tests.put(key, t);
        }
        StringBuilder test = new StringBuilder("(" + isObject(subject) + ")");
        if (!open) {
            test.append(" && len(").append(subject).append(") == ").append(tests.size());
        }
        tests.forEach((key, t) -> {
            test.append(" && contains(")
                    .append(subject)
                    .append(", ")
                    .append(Templates.quote(key))
                    .append(")");
            if (!t.isEmpty()) {
                test.append(" && (").append(t).append(")");
            }
        });
        return test.toString();
    }

    /**
     * An item of a destructuring pattern: {@code _} (any: an empty test), a name (takes the item), a quoted
     * {@code ':pattern'} (a pattern of its own) or a literal (equal).
     */
    private String element(String item, String element, Map<String, String> bindings, Pos pos) {
        if (item.equals("_")) {
            return "";
        }
        if (NAME.matcher(item).matches() && !List.of("true", "false", "null").contains(item)) {
            bindings.put(item, element);
            return "";
        }
        if (item.length() >= 3
                && (item.startsWith("':") || item.startsWith("\":"))
                && item.endsWith(item.substring(0, 1))) {
            return test(item.substring(2, item.length() - 1).strip(), element, bindings, pos);
        }
        String literal = templates.expression(item, pos);
        return literal == null ? null : element + " == " + literal;
    }
}
