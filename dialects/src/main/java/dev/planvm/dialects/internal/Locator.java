package dev.planvm.dialects.internal;

/** Maps a character offset in a piece of text (a whole file, or one YAML scalar) to its place in the file. */
@FunctionalInterface
public interface Locator {

    Pos at(int offset);

    /** A locator over a whole source text: offsets count from its first character. */
    static Locator of(String text) {
        return new LineTable(text);
    }
}
