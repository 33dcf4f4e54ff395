package dev.planvm.dialects.internal.yaml;

import dev.planvm.dialects.internal.Lexer;
import dev.planvm.dialects.internal.SyntaxError;
import dev.planvm.dialects.internal.Token;
import java.util.HashMap;
import java.util.Map;

/**
 * Makes seed 000's unquoted references readable as YAML. A plain value such as
 * {@code result: ${{ option1: jfk, option2: lga }}} is not valid YAML ({@code ": "} inside a plain
 * value starts a mapping), and in {@code x: ${'a #b'}} YAML takes {@code " #"} for a comment. Before
 * parsing, each line whose plain value holds a reference containing {@code ": "} or {@code " #"} (or
 * ending in {@code ":"}) gets that value double-quoted, with {@code \} and {@code "} escaped.
 * Only such lines change, and they could not have been read as intended otherwise, so a valid
 * document is never altered; lines keep their numbers, and {@link Repair} keeps the original
 * column, so messages point into the file as written. Lines inside block scalars ({@code |},
 * {@code >}) are left alone. References are delimited with the expression scanner, so braces
 * and quotes inside them are understood.
 */
final class ValueRepair {

    /**
     * A value that was quoted.
     *
     * @param valueColumn 0-based column of the value in the original line (where the opening quote now is)
     */
    record Repair(int valueColumn) {}

    /** The text to parse, and the repaired lines (0-based line to repair). */
    record Result(String text, Map<Integer, Repair> repairs) {}

    private ValueRepair() {}

    static Result repair(String text) {
        if (!text.contains("${")) {
            return new Result(text, Map.of());
        }
        String[] lines = text.split("\n", -1);
        Map<Integer, Repair> repairs = new HashMap<>();
        int blockParentIndent = -1;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int indent = indentOf(line);
            if (blockParentIndent >= 0) {
                if (line.isBlank() || indent > blockParentIndent) {
                    continue;
                }
                blockParentIndent = -1;
            }
            int valueStart = valueStart(line, indent);
            if (valueStart < 0) {
                continue;
            }
            char first = line.charAt(valueStart);
            if (first == '|' || first == '>') {
                blockParentIndent = indent;
                continue;
            }
            if ("'\"[{&*!%@`#".indexOf(first) >= 0 || line.indexOf("${", valueStart) < 0) {
                continue;
            }
            String fixed = quoteIfNeeded(line, valueStart);
            if (fixed != null) {
                lines[i] = fixed;
                repairs.put(i, new Repair(valueStart));
            }
        }
        return repairs.isEmpty()
                ? new Result(text, Map.of())
                : new Result(String.join("\n", lines), Map.copyOf(repairs));
    }

    private static int indentOf(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    /** Where the value of a {@code key: value} or {@code - value} line starts, or -1. */
    private static int valueStart(String line, int from) {
        int i = from;
        while (line.startsWith("- ", i)) {
            i = skipSpaces(line, i + 2);
        }
        if (i >= line.length() || "#{[\"'?".indexOf(line.charAt(i)) >= 0) {
            return -1; // a comment, a flow collection, a quoted or complex key: left to YAML
        }
        if (line.startsWith("${", i)) {
            return i; // a list item that is a reference
        }
        int colon = line.indexOf(": ", i);
        int ref = line.indexOf("${", i);
        if (colon < 0 || (ref >= 0 && ref < colon)) {
            return -1;
        }
        int value = skipSpaces(line, colon + 2);
        return value < stripEnd(line) ? value : -1;
    }

    /** The line with its value quoted, when a reference in it would be misread; else null. */
    private static String quoteIfNeeded(String line, int valueStart) {
        int end = stripEnd(line);
        boolean misread = false;
        int i = valueStart;
        int valueEnd = end;
        while (i < end) {
            if (line.startsWith("$${", i)) {
                i += 3;
            } else if (line.startsWith("${", i)) {
                int close = referenceEnd(line, i + 2);
                if (close < 0) {
                    return null; // not a complete reference on this line: leave it to YAML
                }
                String inside = line.substring(i, close);
                misread |= inside.contains(": ")
                        || inside.contains(" #")
                        || inside.contains("\t#")
                        || (close == end && line.charAt(close - 1) == ':');
                i = close;
            } else if ((line.charAt(i) == '#' && i > valueStart && Character.isWhitespace(line.charAt(i - 1)))) {
                valueEnd = stripEnd(line.substring(0, i));
                break;
            } else {
                i++;
            }
        }
        if (!misread) {
            return null;
        }
        String value = line.substring(valueStart, valueEnd);
        String escaped = value.replace("\\", "\\\\").replace("\"", "\\\"");
        return line.substring(0, valueStart) + '"' + escaped + '"' + line.substring(valueEnd);
    }

    /** The offset just after the {@code }} closing a reference whose expression starts at {@code from}, or -1. */
    private static int referenceEnd(String line, int from) {
        Lexer lexer = new Lexer(line, from, false);
        int depth = 0;
        try {
            for (int tokens = 0; tokens < 100_000; tokens++) {
                Token t = lexer.next();
                switch (t.kind()) {
                    case EOF -> {
                        return -1;
                    }
                    case LPAREN, LBRACKET, LBRACE -> depth++;
                    case RPAREN, RBRACKET -> depth--;
                    case RBRACE -> {
                        if (depth == 0) {
                            return t.offset() + 1;
                        }
                        depth--;
                    }
                    default -> {}
                }
            }
        } catch (SyntaxError e) {
            return -1;
        }
        return -1;
    }

    private static int skipSpaces(String line, int i) {
        while (i < line.length() && line.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    private static int stripEnd(String line) {
        int end = line.length();
        while (end > 0 && Character.isWhitespace(line.charAt(end - 1))) {
            end--;
        }
        return end;
    }
}
