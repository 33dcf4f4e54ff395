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
                        XmlElement element = start(reader);
                        if (open.isEmpty()) {
                            root = element;
                        } else {
                            open.peek().children.add(element);
                        }
                        open.push(element);
                    }
                    case XMLStreamConstants.END_ELEMENT -> end(open.pop(), offset(reader));
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

    private XmlElement start(XMLStreamReader reader) {
        String name = reader.getLocalName();
        int tagEnd = offset(reader);
        int tagStart = source.lastIndexOf("<" + name, Math.max(0, tagEnd - 1));
        if (tagStart < 0) {
            tagStart = Math.max(0, tagEnd - 1);
        }
        XmlElement element = new XmlElement(name, pos(tagStart), tagStart, tagEnd);
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            element.attributes.put(reader.getAttributeLocalName(i), reader.getAttributeValue(i));
        }
        return element;
    }

    private void end(XmlElement element, int tagEnd) {
        if (element.startTagEnd >= 2 && source.startsWith("/>", element.startTagEnd - 2)) {
            element.endTagStart = element.startTagEnd;
            element.end = element.startTagEnd;
            return;
        }
        int endStart = source.lastIndexOf("</" + element.name, Math.max(element.startTagEnd, tagEnd - 1));
        element.endTagStart = endStart < element.startTagEnd ? element.startTagEnd : endStart;
        int close = source.indexOf('>', element.endTagStart);
        element.end = close < 0 ? source.length() : close + 1;
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
