package dev.planvm.dialects.internal;

/**
 * A place in a dialect source file, for messages and the trace's line mapping.
 *
 * @param line   1-based line
 * @param column 1-based column (in UTF-16 characters, as editors count them for most text)
 */
public record Pos(int line, int column) {

    public Pos {
        if (line < 1 || column < 1) {
            throw new IllegalArgumentException("positions start at line 1, column 1, not " + line + ":" + column);
        }
    }

    /** {@code line 3, column 7}. */
    public String describe() {
        return "line " + line + ", column " + column;
    }
}
