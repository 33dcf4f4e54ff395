package dev.planvm.dialects.internal.ppe;

import java.util.regex.Pattern;

/**
 * PPE's lenient script form, read as the reference reads it: a script's steps may mix {@code key: value}
 * lines, bare lines ({@code $AI}, {@code "a user turn"}, {@code -> script}) and list items in one document,
 * because every top-level line of the steps becomes a list item before the text is read as YAML:
 *
 * <ul>
 *   <li>a line of {@code ---} or {@code ***} (alone, quoted, or as a list item) separates dialogues: it becomes
 *       the step {@code $initDone}, the first one {@code $initDone(force=true)} (it keeps the messages so far as
 *       the script's first part; {@code ---!} forces it too);
 *   <li>a line starting with {@code ->} (a chain) becomes {@code - -> ...};
 *   <li>a line that starts with {@code -} stays as it is, and so does an indented line under it;
 *   <li>an indented line under a {@code key: value} line is indented two more columns (it stays under the key);
 *   <li>every other line ({@code key: value}, a bare line, a comment) becomes a list item ({@code - ...}).
 * </ul>
 *
 * The front matter (between a first line {@code ---}, after blank and comment lines, and the next line starting
 * with {@code ---}) is kept as it
 * is, as the first YAML document; the steps are the second. Lines keep their numbers; {@link #shift} says how
 * many columns each line moved, so positions can be given in the script's own columns.
 */
final class LenientForm {

    private final String text;
    private final int[] shift;

    private LenientForm(String text, int[] shift) {
        this.text = text;
        this.shift = shift;
    }

    /** The YAML text to read. */
    String text() {
        return text;
    }

    /** How many columns line {@code line} (from 1) moved to the right. */
    int shift(int line) {
        return line >= 1 && line <= shift.length ? shift[line - 1] : 0;
    }

    static LenientForm of(String source) {
        String[] lines = source.replace("\r\n", "\n").split("\n", -1);
        int[] shift = new int[lines.length];
        StringBuilder out = new StringBuilder(source.length() + lines.length * 2);
        int body = 0;
        int start = 0;
        while (start < lines.length
                && (lines[start].isBlank() || lines[start].stripLeading().startsWith("#"))) {
            start++; // blank and comment lines before the front matter
        }
        if (start < lines.length - 1 && lines[start].equals("---")) {
            for (int i = start + 1; i < lines.length; i++) {
                if (lines[i].startsWith("---")) {
                    for (int j = 0; j < i; j++) {
                        out.append(lines[j]).append('\n');
                    }
                    out.append("---\n");
                    body = i + 1;
                    break;
                }
            }
        }
        Boolean listed = null;
        boolean first = true;
        for (int i = body; i < lines.length; i++) {
            String line = stripEnd(lines[i]);
            String rewritten;
            if (line.isEmpty()) {
                rewritten = line;
            } else if (SEPARATOR.matcher(line).matches()) {
                boolean force = SEPARATOR.matcher(line).replaceFirst("$3").equals("!") || first;
                first = false;
                rewritten = force ? "- \"$initDone(force=true)\"" : "- \"$initDone\"";
            } else if (line.startsWith("->")) {
                rewritten = "- " + line;
                shift[i] = 2;
            } else {
                char c = line.charAt(0);
                if (listed == null) {
                    listed = c == '-';
                }
                boolean wasListed = listed;
                if (c == '-' || c != ' ') {
                    listed = c == '-';
                }
                if (c == '-' || wasListed && c == ' ') {
                    rewritten = line;
                } else if (c == ' ') {
                    rewritten = "  " + line;
                    shift[i] = 2;
                } else if (c == '|' && line.length() > 1 && line.charAt(1) == '-') {
                    rewritten = "  " + line.substring(2).stripLeading();
                } else {
                    rewritten = "- " + line;
                    shift[i] = 2;
                }
            }
            out.append(rewritten);
            if (i < lines.length - 1) {
                out.append('\n');
            }
        }
        return new LenientForm(out.toString(), shift);
    }

    /** {@code ---}, {@code ***} (three or more), alone, quoted, as a list item, or with a comment after it. */
    private static final Pattern SEPARATOR = Pattern.compile("(?:-\\s+)?(['\"]?)([*]{3,}|[-]{3,})(!?)\\1(?:\\s*#.*)?");

    private static String stripEnd(String line) {
        int end = line.length();
        while (end > 0 && Character.isWhitespace(line.charAt(end - 1))) {
            end--;
        }
        return line.substring(0, end);
    }
}
