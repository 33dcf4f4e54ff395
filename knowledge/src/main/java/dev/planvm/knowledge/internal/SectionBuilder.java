package dev.planvm.knowledge.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects the sections of a text from its headings, in order: each heading opens a section that runs to
 * the next heading; the heading path is the chain of open headings of lower level ({@code A > B > C}).
 */
final class SectionBuilder {

    private static final int MAX_HEADING_CHARS = 200;

    private final String[] open = new String[7];
    private final List<ParsedDocument.Section> sections = new ArrayList<>();
    private String firstH1;
    private int sectionStart;
    private String sectionHeading = "";

    /** A heading of {@code level} (1–6) whose section starts at {@code position}. */
    void heading(int level, String text, int position) {
        String clean = text.replaceAll("\\s+", " ").strip();
        if (clean.length() > MAX_HEADING_CHARS) {
            clean = clean.substring(0, MAX_HEADING_CHARS) + "…";
        }
        if (clean.isEmpty()) {
            return;
        }
        if (level == 1 && firstH1 == null) {
            firstH1 = clean;
        }
        close(position);
        open[level] = clean;
        for (int deeper = level + 1; deeper < open.length; deeper++) {
            open[deeper] = null;
        }
        StringBuilder path = new StringBuilder();
        for (int i = 1; i <= level; i++) {
            if (open[i] != null) {
                if (path.length() > 0) {
                    path.append(" > ");
                }
                path.append(open[i]);
            }
        }
        sectionStart = position;
        sectionHeading = path.toString();
    }

    /** The sections of a text of {@code length} characters; a section of blank text is left out. */
    List<ParsedDocument.Section> sections(CharSequence text, int length) {
        close(length);
        List<ParsedDocument.Section> nonBlank = new ArrayList<>();
        for (ParsedDocument.Section section : sections) {
            if (!isBlank(text, section.start(), section.end())) {
                nonBlank.add(section);
            }
        }
        return nonBlank;
    }

    /** The first level-1 heading, or null. */
    String firstH1() {
        return firstH1;
    }

    private void close(int position) {
        if (position > sectionStart) {
            sections.add(new ParsedDocument.Section(sectionHeading, sectionStart, position));
        }
        sectionStart = position;
    }

    private static boolean isBlank(CharSequence text, int start, int end) {
        for (int i = start; i < end; i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
