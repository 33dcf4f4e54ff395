package dev.planvm.knowledge.internal;

import java.util.List;
import java.util.Objects;

/**
 * The text of one document and its sections. Offsets are character offsets into {@link #text()}
 * (for HTML and PDF: into the text extracted from them).
 *
 * @param type      {@code markdown}, {@code text}, {@code html} or {@code pdf}
 * @param title     the document's title (its first heading, its {@code <title>}, its PDF title, else the file name)
 * @param text      the text
 * @param sections  consecutive, non-overlapping ranges of the text, each under its heading path
 * @param truncated whether the text was cut at the size limit
 */
public record ParsedDocument(String type, String title, String text, List<Section> sections, boolean truncated) {

    public ParsedDocument {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(text, "text");
        sections = List.copyOf(sections);
    }

    /**
     * A range of the text under one heading path.
     *
     * @param heading the heading path ({@code Install > From source}), empty before the first heading
     */
    public record Section(String heading, int start, int end) {
        public Section {
            Objects.requireNonNull(heading, "heading");
            if (start < 0 || end < start) {
                throw new IllegalArgumentException("bad section range " + start + ".." + end);
            }
        }
    }
}
