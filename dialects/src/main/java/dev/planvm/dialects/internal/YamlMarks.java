package dev.planvm.dialects.internal;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** SnakeYAML's marks and errors as the dialects report them: a {@link Pos} and one short line. */
public final class YamlMarks {

    private YamlMarks() {}

    /** The source position of a mark (lines and columns from 1). */
    public static Pos pos(Mark mark) {
        return new Pos(mark.getLine() + 1, mark.getColumn() + 1);
    }

    /** What a YAML syntax error says, in one line of at most 200 characters. */
    public static String describe(MarkedYAMLException e) {
        String problem = e.getProblem() != null ? e.getProblem() : e.getContext();
        return problem == null ? firstLine(e.getMessage()) : firstLine(problem);
    }

    /** The first line of a message, at most 200 characters. */
    public static String firstLine(String s) {
        if (s == null) {
            return "unknown problem";
        }
        int newline = s.indexOf('\n');
        String line = newline < 0 ? s : s.substring(0, newline);
        return line.length() > 200 ? line.substring(0, 197) + "..." : line;
    }
}
