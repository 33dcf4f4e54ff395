package dev.planvm.dialects.internal.idyll;

import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Locale;
import javax.xml.XMLConstants;
import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a document's XML into {@link XmlElement}s, safely: a document is untrusted. No namespace
 * processing (documents use prefixes they never declare: {@code function:definition},
 * {@code mention:user}), no DTD (a {@code <!DOCTYPE>} is refused, so no entity can be declared, let alone
 * an external one), and bounds on nesting and on the number of elements. Each element knows the line
 * and column of its start tag and the offsets of its tags in the text, so a copy of the document can be
 * written with results filled in. Comments and processing instructions are dropped.
 */
final class XmlReader {

    /** The most elements one document may have. */
    static final int MAX_ELEMENTS = 100_000;

    private static final XMLInputFactory FACTORY = factory();

    private final String source;
    private final int[] lineStarts;
    private final int maxDepth;
    private final Problems problems;

    private XmlReader(String source, int maxDepth, Problems problems) {
        this.source = source;
        this.lineStarts = lineStarts(source);
        this.maxDepth = maxDepth;
        this.problems = problems;
    }

    /** The root element, or {@code null} with the problem reported (malformed XML, a DTD, a limit). */
    static XmlElement read(String source, int maxDepth, Problems problems) {
        return new XmlReader(source, maxDepth, problems).read();
    }

    private static XMLInputFactory factory() {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, false);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        return factory;
    }

    private XmlElement read() {
        if (source.isBlank()) {
            problems.error(new Pos(1, 1), "the document is empty: write a <document> element");
            return null;
        }
        XMLStreamReader reader = null;
        Deque<XmlElement> open = new ArrayDeque<>();
        XmlElement root = null;
        int elements = 0;
        try {
            synchronized (FACTORY) { // the JDK's factory is not documented as thread-safe for creation
                reader = FACTORY.createXMLStreamReader(new StringReader(source));
            }
            while (reader.hasNext()) {
                int event = reader.next();
                switch (event) {
                    case XMLStreamConstants.DTD -> {
                        problems.error(
                                pos(source.indexOf("<!DOCTYPE") < 0 ? 0 : source.indexOf("<!DOCTYPE")),
                                "a <!DOCTYPE> is not allowed in a document (no DTDs or entities are read)");
                        return null;
                    }
                    case XMLStreamConstants.START_ELEMENT -> {
                        if (++elements > MAX_ELEMENTS) {
                            problems.error(
                                    pos(offset(reader)),
                                    "the document has more than " + String.format(Locale.ROOT, "%,d", MAX_ELEMENTS)
                                            + " elements");
                            return null;
                        }
                        if (open.size() >= maxDepth) {
                            problems.error(pos(offset(reader)), "elements nest more than " + maxDepth + " deep");
                            return null;
                        }
                        XmlElement element = start(reader, open.isEmpty() ? 0 : open.peek().cursor);
                        if (open.isEmpty()) {
                            root = element;
                        } else {
                            open.peek().children.add(element);
                        }
                        open.push(element);
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        XmlElement element = open.pop();
                        end(element, element.cursor);
                        if (!open.isEmpty()) {
                            open.peek().cursor = element.end;
                        }
                    }
                    case XMLStreamConstants.CHARACTERS,
                            XMLStreamConstants.CDATA,
                            XMLStreamConstants.SPACE,
                            XMLStreamConstants.ENTITY_REFERENCE -> {
                        if (!open.isEmpty()) {
                            text(open.peek(), reader.getText());
                        }
                    }
                    default -> {
                        // comments, processing instructions, the document's start and end
                    }
                }
            }
        } catch (XMLStreamException e) {
            Location at = e.getLocation();
            Pos pos = at != null && at.getLineNumber() > 0 && at.getColumnNumber() > 0
                    ? new Pos(at.getLineNumber(), at.getColumnNumber())
                    : new Pos(1, 1);
            problems.error(pos, "the document is not well-formed XML: " + message(e));
            return null;
        } finally {
            close(reader);
        }
        if (root == null) {
            problems.error(new Pos(1, 1), "the document has no root element: write a <document> element");
        }
        return root;
    }

    /**
     * The element starting now: its tag is the first one after {@code from} (the end of the previous
     * sibling, or of the parent's start tag). The parser's own offsets are not used for this: they run
     * ahead of the tag by a varying amount.
     */
    private XmlElement start(XMLStreamReader reader, int from) {
        String name = reader.getLocalName();
        int tagStart = nextTag(from);
        if (tagStart < 0 || !source.startsWith("<" + name, tagStart)) {
            tagStart = Math.max(0, source.lastIndexOf("<" + name, Math.max(0, offset(reader) - 1)));
        }
        int tagEnd = tagEnd(tagStart);
        XmlElement element = new XmlElement(name, pos(tagStart), tagStart, tagEnd);
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            element.attributes.put(reader.getAttributeLocalName(i), reader.getAttributeValue(i));
        }
        return element;
    }

    /** Where {@code element} ends: its end tag is the first after {@code from} (its last child's end). */
    private void end(XmlElement element, int from) {
        if (source.startsWith("/>", element.startTagEnd - 2)) {
            element.endTagStart = element.startTagEnd;
            element.end = element.startTagEnd;
            return;
        }
        int at = nextTag(from);
        element.endTagStart = at < 0 ? source.length() : at;
        int close = source.indexOf('>', element.endTagStart);
        element.end = close < 0 ? source.length() : close + 1;
    }

    /** The first tag at or after {@code from}, past comments, CDATA sections and processing instructions; -1 if none. */
    private int nextTag(int from) {
        int i = from;
        while (true) {
            i = source.indexOf('<', i);
            if (i < 0) {
                return -1;
            }
            int skip = skipped(i, "<!--", "-->");
            skip = skip >= 0 ? skip : skipped(i, "<![CDATA[", "]]>");
            skip = skip >= 0 ? skip : skipped(i, "<?", "?>");
            skip = skip >= 0 ? skip : skipped(i, "<!", ">");
            if (skip < 0) {
                return i;
            }
            i = skip;
        }
    }

    /** The offset after the construct {@code open ... close} at {@code i}, or -1 when none starts there. */
    private int skipped(int i, String open, String close) {
        if (!source.startsWith(open, i)) {
            return -1;
        }
        int end = source.indexOf(close, i + open.length());
        return end < 0 ? source.length() : end + close.length();
    }

    /** The offset after the {@code >} of the tag starting at {@code tagStart} (quoted attribute values may hold {@code >}). */
    private int tagEnd(int tagStart) {
        char quote = 0;
        for (int i = tagStart + 1; i < source.length(); i++) {
            char c = source.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '>') {
                return i + 1;
            }
        }
        return source.length();
    }

    private static void text(XmlElement element, String text) {
        int last = element.children.size() - 1;
        if (last >= 0 && element.children.get(last) instanceof XmlElement.Text previous) {
            element.children.set(last, new XmlElement.Text(previous.text() + text));
        } else {
            element.children.add(new XmlElement.Text(text));
        }
    }

    private int offset(XMLStreamReader reader) {
        int offset = reader.getLocation().getCharacterOffset();
        return Math.max(0, Math.min(offset, source.length()));
    }

    /** The line and column of a character offset. */
    Pos pos(int offset) {
        int line = Arrays.binarySearch(lineStarts, offset);
        if (line < 0) {
            line = -line - 2;
        }
        return new Pos(line + 1, offset - lineStarts[line] + 1);
    }

    private static int[] lineStarts(String text) {
        int count = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                count++;
            }
        }
        int[] starts = new int[count];
        int line = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                starts[line++] = i + 1;
            }
        }
        return starts;
    }

    /** The parser's message without its {@code ParseError at [row,col]:[..]} preamble. */
    private static String message(XMLStreamException e) {
        String message = e.getMessage() == null ? "malformed" : e.getMessage();
        int at = message.indexOf("Message: ");
        return (at >= 0 ? message.substring(at + "Message: ".length()) : message).strip();
    }

    private static void close(XMLStreamReader reader) {
        if (reader != null) {
            try {
                reader.close();
            } catch (XMLStreamException e) {
                // nothing to release for a string
            }
        }
    }
}
