package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 004's regular-expression replacement in a message, {@code [[/RegExp/opts:VAR[:group]]]}: the part of
 * {@code VAR} the expression matches (its capture group, else the whole match), or {@code VAR} itself when nothing
 * matches. planvm runs no regex engine, so nothing can backtrack: the expressions it reads are those whose first
 * match is found by searching literal text — {@code ^? TEXT (G) TEXT $?} with one group {@code G} of any
 * characters ({@code .*}, {@code .+}, lazy {@code .*?}, {@code .+?}, {@code [\s\S]*}, named {@code (?<n>...)}), or
 * literal text alone — and they become {@code split}/{@code join}/{@code contains} instructions and bounded loops,
 * linear in the text. As in JavaScript, {@code .} does not cross a line end unless the flag {@code s} is given
 * (each line is searched in turn) and the first (leftmost) match counts. Other expressions, and the flags
 * {@code i}, {@code m}, {@code y}, are refused with the line when the script compiles.
 */
final class RegexReplacement {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern FORM = Pattern.compile(
            "/(.+)/([a-z]*):([A-Za-z_][A-Za-z0-9_.]*)(?::([A-Za-z_][A-Za-z0-9_]*|\\d+))?\\s*", Pattern.DOTALL);
    private static final Pattern GROUP =
            Pattern.compile("\\((\\?<([A-Za-z_][A-Za-z0-9_]*)>)?(\\.|\\[\\\\s\\\\S]|\\[\\^])([*+])(\\??)\\)");
    private static final String META = "\\^$.|?*+()[]{}/";

    /** A parsed expression: literal text around one group (or no group: {@code group} false). */
    private record Shape(
            boolean start,
            String before,
            boolean group,
            boolean anyChar,
            boolean plus,
            boolean lazy,
            String groupName,
            String after,
            boolean end) {}

    private final PlanBuilder plan;
    private final Templates templates;
    private final Problems problems;
    private int count;

    RegexReplacement(PlanBuilder plan, Templates templates, Problems problems) {
        this.plan = plan;
        this.templates = templates;
        this.problems = problems;
    }

    /**
     * Writes the instructions of {@code inner} (the text between {@code [[} and {@code ]]}) and gives the template
     * text that shows their result, or null after a problem (reported).
     */
    String replacement(String inner, Pos pos) {
        Matcher form = FORM.matcher(inner);
        if (!form.matches()) {
            problems.error(pos, "a regular-expression replacement is '[[/RegExp/opts:VAR[:group]]]'");
            return null;
        }
        String flags = form.group(2);
        for (char f : flags.toCharArray()) {
            if ("gsud".indexOf(f) < 0) {
                problems.error(
                        pos, "the regular-expression flag '" + f + "' is not supported in a replacement (g, s, u)");
                return null;
            }
        }
        Shape shape;
        try {
            shape = shape(form.group(1), flags.indexOf('s') >= 0);
        } catch (IllegalArgumentException e) {
            problems.error(pos, "[[/" + form.group(1) + "/...]]: " + e.getMessage());
            return null;
        }
        String selector = form.group(4);
        boolean whole;
        if (selector == null) {
            whole = !shape.group();
        } else if (selector.equals("0")) {
            whole = true;
        } else if (shape.group() && (selector.equals("1") || selector.equals(shape.groupName()))) {
            whole = false;
        } else {
            problems.error(pos, "the regular expression has no group '" + selector + "'");
            return null;
        }
        String variable = templates.expression(form.group(3), pos);
        if (variable == null) {
            return null;
        }
        String v = "RX" + ++count + "_";
        Pos p = pos;
        String line = "line " + pos.line() + ": [[/" + form.group(1) + "/]] ";
        ObjectNode init = JSON.objectNode();
        init.put(v + "OUT", "${str(" + variable + ")}");
        plan.assign(init, p, line + "shows " + form.group(3) + " unless it matches");
        PlanBuilder.Label done = plan.label();
        if (!shape.group()) {
            plan.jumpIf(
                    "${!(" + RegexText.test(literalSource(shape), "", v + "OUT") + ")}", done, p, line + "no match");
            ObjectNode found = JSON.objectNode();
            found.put(v + "OUT", shape.before());
            plan.assign(found, p, line + "matched");
            plan.place(done);
            return "${" + v + "OUT}";
        }
        ObjectNode start = JSON.objectNode();
        String text = "str(" + variable + ")";
        start.put(
                v + "LINES",
                shape.anyChar() ? "${[" + text + "]}" : "${split(" + lines(text) + ", " + Templates.quote("\n") + ")}");
        start.put(v + "K", 0);
        plan.assign(start, p, line + (shape.anyChar() ? "searches the text" : "searches each line"));
        PlanBuilder.Label nextLine = plan.label();
        PlanBuilder.Label found = plan.label();
        plan.place(nextLine);
        plan.jumpIf("${" + v + "K >= len(" + v + "LINES)}", done, p, line + "no line matches");
        ObjectNode take = JSON.objectNode();
        take.put(v + "T", "${" + v + "LINES[" + v + "K]}");
        take.put(v + "K", "${" + v + "K + 1}");
        plan.assign(take, p, line + "the next line");
        if (shape.start()) {
            plan.jumpIf("${" + v + "K > 1}", done, p, line + "'^' is the start of the text");
        }
        if (shape.end()) {
            plan.jumpIf("${" + v + "K < len(" + v + "LINES)}", nextLine, p, line + "'$' is the end of the text");
        }
        String before = Templates.quote(shape.before());
        String after = Templates.quote(shape.after());
        if (shape.before().isEmpty()) {
            assign(v + "R", v + "T", p, line + "the text after the start");
        } else {
            plan.jumpIf("${!contains(" + v + "T, " + before + ")}", nextLine, p, line + "no '" + shape.before() + "'");
            assign(v + "P", "split(" + v + "T, " + before + ")", p, line + "splits at '" + shape.before() + "'");
            if (shape.start()) {
                plan.jumpIf("${" + v + "P[0] != ''}", done, p, line + "'^': it must start the text");
            }
            joinRange(v, v + "R", v + "P", "1", "len(" + v + "P)", before, p, line + "the text after the first one");
        }
        if (shape.after().isEmpty()) {
            if (shape.lazy() && !shape.end()) {
                if (shape.plus()) {
                    plan.jumpIf("${" + v + "R == ''}", nextLine, p, line + "'+' needs a character");
                    assign(v + "G", "split(" + v + "R, '')[0]", p, line + "the shortest group");
                } else {
                    assign(v + "G", "''", p, line + "the shortest group");
                }
            } else {
                assign(v + "G", v + "R", p, line + "the longest group");
                if (shape.plus()) {
                    plan.jumpIf("${" + v + "G == ''}", nextLine, p, line + "'+' needs a character");
                }
            }
        } else {
            plan.jumpIf("${!contains(" + v + "R, " + after + ")}", nextLine, p, line + "no '" + shape.after() + "'");
            assign(v + "Q", "split(" + v + "R, " + after + ")", p, line + "splits at '" + shape.after() + "'");
            if (shape.lazy() && !shape.end()) {
                assign(v + "G", v + "Q[0]", p, line + "up to the first '" + shape.after() + "'");
                if (shape.plus()) {
                    plan.jumpIf("${" + v + "G != ''}", found, p, line + "a group of one character or more");
                    plan.jumpIf("${len(" + v + "Q) < 3}", nextLine, p, line + "no later '" + shape.after() + "'");
                    assign(v + "G", after + " + " + v + "Q[1]", p, line + "up to the next '" + shape.after() + "'");
                }
            } else {
                if (shape.end()) {
                    plan.jumpIf(
                            "${" + v + "Q[len(" + v + "Q) - 1] != ''}",
                            nextLine,
                            p,
                            line + "'$': it must end the text");
                }
                joinRange(
                        v,
                        v + "G",
                        v + "Q",
                        "0",
                        "len(" + v + "Q) - 1",
                        after,
                        p,
                        line + "up to the last '" + shape.after() + "'");
                if (shape.plus()) {
                    plan.jumpIf("${" + v + "G == ''}", nextLine, p, line + "'+' needs a character");
                }
            }
        }
        plan.place(found);
        ObjectNode out = JSON.objectNode();
        out.put(v + "OUT", whole ? "${" + before + " + " + v + "G + " + after + "}" : "${" + v + "G}");
        plan.assign(out, p, line + "matched");
        plan.place(done);
        return "${" + v + "OUT}";
    }

    /** {@code target = join(array[from..to), sep)} as a loop (planvm's expressions have no slice). */
    private void joinRange(
            String v, String target, String array, String from, String to, String sep, Pos p, String objective) {
        ObjectNode first = JSON.objectNode();
        first.put(target, "${" + array + "[" + from + "]}");
        first.put(v + "I", "${" + from + " + 1}");
        plan.assign(first, p, objective);
        PlanBuilder.Label top = plan.label();
        PlanBuilder.Label out = plan.label();
        plan.place(top);
        plan.jumpIf("${" + v + "I >= " + to + "}", out, p, objective + ": joined");
        ObjectNode more = JSON.objectNode();
        more.put(target, "${" + target + " + " + sep + " + " + array + "[" + v + "I]}");
        more.put(v + "I", "${" + v + "I + 1}");
        plan.assign(more, p, objective + ": one more piece");
        plan.jump(top, p, objective + ": again");
        plan.place(out);
    }

    private void assign(String name, String expression, Pos p, String objective) {
        ObjectNode values = JSON.objectNode();
        values.put(name, "${" + expression + "}");
        plan.assign(values, p, objective);
    }

    /** The text with every JavaScript line end ({@code \r}, U+2028, U+2029) as {@code \n}. */
    private static String lines(String text) {
        String t = text;
        for (String end : new String[] {"\r", "\u2028", "\u2029"}) {
            t = "join(split(" + t + ", " + Templates.quote(end) + "), " + Templates.quote("\n") + ")";
        }
        return t;
    }

    private static String literalSource(Shape shape) {
        StringBuilder s = new StringBuilder(shape.start() ? "^" : "");
        for (char c : shape.before().toCharArray()) {
            s.append(META.indexOf(c) >= 0 ? "\\" + c : String.valueOf(c));
        }
        return s.append(shape.end() ? "$" : "").toString();
    }

    private static Shape shape(String source, boolean dotAll) {
        String s = source;
        boolean start = s.startsWith("^");
        if (start) {
            s = s.substring(1);
        }
        boolean end = s.endsWith("$") && !s.endsWith("\\$");
        if (end) {
            s = s.substring(0, s.length() - 1);
        }
        int open = unescaped(s, '(');
        if (open < 0) {
            return new Shape(start, literal(s), false, false, false, false, null, "", end);
        }
        Matcher group = GROUP.matcher(s);
        if (!group.find(open) || group.start() != open) {
            throw new IllegalArgumentException(
                    "planvm reads one group of any characters ((.*), (.+), (.*?), (.+?), ([\\s\\S]*)) between"
                            + " literal texts");
        }
        String before = literal(s.substring(0, open));
        String after = literal(s.substring(group.end()));
        boolean anyChar = dotAll || !group.group(3).equals(".");
        if (!anyChar && (before.contains("\n") || after.contains("\n"))) {
            throw new IllegalArgumentException("a line end around '.' never matches: add the flag s");
        }
        return new Shape(
                start,
                before,
                true,
                anyChar,
                group.group(4).equals("+"),
                !group.group(5).isEmpty(),
                group.group(2),
                after,
                end);
    }

    private static int unescaped(String s, char c) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '\\') {
                i++;
            } else if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** Literal text of a regular expression: escapes of metacharacters, \n, \t and \r; no metacharacter. */
    private static String literal(String s) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                switch (next) {
                    case 'n' -> text.append('\n');
                    case 't' -> text.append('\t');
                    case 'r' -> text.append('\r');
                    default -> {
                        if (META.indexOf(next) < 0 && next != '\\' && next != '-' && next != '<' && next != '>') {
                            throw new IllegalArgumentException("the escape '\\" + next
                                    + "' is not supported: planvm matches literal text around" + " one group");
                        }
                        text.append(next);
                    }
                }
            } else if (META.indexOf(c) >= 0 && c != '/') {
                throw new IllegalArgumentException("'" + c
                        + "' is not supported: planvm matches literal text around one group of any" + " characters");
            } else {
                text.append(c);
            }
        }
        return text.toString();
    }
}
