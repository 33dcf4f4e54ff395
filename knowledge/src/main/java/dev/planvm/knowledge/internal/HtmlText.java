package dev.planvm.knowledge.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.parser.Parser;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * The text of an HTML page (jsoup): the body's text with block elements as paragraphs, {@code <pre>}
 * kept verbatim, scripts, styles and embedded objects dropped, {@code <h1>}–{@code <h6>} as section
 * headings and {@code <title>} (else the first {@code <h1>}) as the title. Element nesting is bounded
 * (jsoup's parser depth limit), and the text stops at the size limit.
 */
final class HtmlText {

    private static final int MAX_DEPTH = 256;
    private static final Set<String> BLOCKS = Set.of(
            "p",
            "div",
            "section",
            "article",
            "main",
            "aside",
            "header",
            "footer",
            "nav",
            "ul",
            "ol",
            "li",
            "dl",
            "dt",
            "dd",
            "table",
            "thead",
            "tbody",
            "tr",
            "td",
            "th",
            "blockquote",
            "pre",
            "figure",
            "figcaption",
            "form",
            "fieldset",
            "address",
            "details",
            "summary",
            "hr",
            "br",
            "caption",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6");

    private final int maxTextChars;

    HtmlText(int maxTextChars) {
        this.maxTextChars = maxTextChars;
    }

    ParsedDocument read(byte[] bytes, String fallbackTitle) throws DocumentException {
        Document page;
        try {
            Parser parser = Parser.htmlParser().setMaxDepth(MAX_DEPTH);
            page = Jsoup.parse(new ByteArrayInputStream(bytes), null, "", parser);
        } catch (IOException | RuntimeException e) {
            throw new DocumentException("cannot be read as HTML: " + e.getMessage());
        }
        page.select("script, style, noscript, template, svg, math, iframe, object, embed, canvas")
                .remove();
        Walker walker = new Walker();
        NodeTraversor.traverse(walker, page.body());
        String text = walker.text.toString();
        String title = page.title().isBlank()
                ? walker.sections.firstH1()
                : page.title().strip();
        return new ParsedDocument(
                "html",
                title == null ? fallbackTitle : title,
                text,
                walker.sections.sections(text, text.length()),
                walker.truncated);
    }

    private final class Walker implements NodeVisitor {
        final StringBuilder text = new StringBuilder();
        final SectionBuilder sections = new SectionBuilder();
        boolean truncated;
        private int pre;

        @Override
        public void head(Node node, int depth) {
            if (node instanceof TextNode textNode) {
                append(pre > 0 ? textNode.getWholeText() : collapse(textNode.text()));
            } else if (node instanceof Element element) {
                String tag = element.normalName();
                if (BLOCKS.contains(tag)) {
                    paragraph();
                }
                if (tag.equals("pre")) {
                    pre++;
                }
                int level = headingLevel(tag);
                if (level > 0) {
                    sections.heading(level, element.text(), text.length());
                }
            }
        }

        @Override
        public void tail(Node node, int depth) {
            if (node instanceof Element element) {
                String tag = element.normalName();
                if (tag.equals("pre")) {
                    pre--;
                }
                if (BLOCKS.contains(tag)) {
                    paragraph();
                }
            }
        }

        private void paragraph() {
            int length = text.length();
            if (length == 0 || (length >= 2 && text.charAt(length - 1) == '\n' && text.charAt(length - 2) == '\n')) {
                return;
            }
            while (text.length() > 0 && text.charAt(text.length() - 1) == ' ') {
                text.setLength(text.length() - 1);
            }
            append(text.length() > 0 && text.charAt(text.length() - 1) == '\n' ? "\n" : "\n\n");
        }

        private void append(String piece) {
            if (piece.isEmpty() || truncated) {
                return;
            }
            if (pre == 0
                    && piece.startsWith(" ")
                    && (text.length() == 0 || Character.isWhitespace(text.charAt(text.length() - 1)))) {
                piece = piece.substring(1);
            }
            int room = maxTextChars - text.length();
            if (piece.length() > room) {
                text.append(piece, 0, Math.max(0, room));
                truncated = true;
            } else {
                text.append(piece);
            }
        }
    }

    private static String collapse(String s) {
        return s.replaceAll("\\s+", " ");
    }

    private static int headingLevel(String tag) {
        if (tag.length() == 2 && tag.charAt(0) == 'h' && tag.charAt(1) >= '1' && tag.charAt(1) <= '6') {
            return tag.charAt(1) - '0';
        }
        return 0;
    }
}
