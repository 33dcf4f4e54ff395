package dev.planvm.dialects.internal.idyll;

import dev.planvm.dialects.internal.Pos;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One element of a document as {@link XmlReader} read it: its name as written (prefix included, since
 * documents use undeclared prefixes such as {@code function:definition}), its attributes in order, its
 * children (elements and text, comments dropped) and where it is in the source: the line and column of
 * its start tag, and the character offsets a copy of the document is edited at.
 */
final class XmlElement {

    /** A piece of text between elements (character data and CDATA sections alike). */
    record Text(String text) {}

    final String name;
    final Map<String, String> attributes = new LinkedHashMap<>();
    final List<Object> children = new ArrayList<>();
    final Pos pos;
    /** Offset of the {@code <} of the start tag. */
    final int start;
    /** Offset just after the {@code >} of the start tag. */
    final int startTagEnd;
    /** Offset of the {@code </} of the end tag ({@link #startTagEnd} for an empty element {@code <x/>}). */
    int endTagStart;
    /** Offset just after the end tag. */
    int end;
    /** Where the reader looks for the next child's tag or the end tag: after the last child read, or the start tag. */
    int cursor;

    XmlElement(String name, Pos pos, int start, int startTagEnd) {
        this.name = name;
        this.pos = pos;
        this.start = start;
        this.startTagEnd = startTagEnd;
        this.cursor = startTagEnd;
    }

    /** Whether it was written {@code <x ... />}. */
    boolean empty() {
        return endTagStart == startTagEnd && end == startTagEnd;
    }

    String attribute(String key) {
        return attributes.get(key);
    }

    /** The child elements, in order. */
    List<XmlElement> elements() {
        List<XmlElement> out = new ArrayList<>();
        for (Object child : children) {
            if (child instanceof XmlElement e) {
                out.add(e);
            }
        }
        return out;
    }

    /** Every piece of text inside it, elements' text included, joined (what {@code <params>} holds). */
    String text() {
        StringBuilder sb = new StringBuilder();
        appendText(sb);
        return sb.toString();
    }

    private void appendText(StringBuilder sb) {
        for (Object child : children) {
            if (child instanceof Text t) {
                sb.append(t.text());
            } else {
                ((XmlElement) child).appendText(sb);
            }
        }
    }
}
