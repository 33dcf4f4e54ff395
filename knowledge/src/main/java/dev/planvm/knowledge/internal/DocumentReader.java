package dev.planvm.knowledge.internal;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the documents a knowledge base is built from: Markdown, plain text, HTML and PDF, chosen by the
 * file's extension. Every reader is bounded: the text is cut at {@code maxTextChars} (the document is
 * then marked truncated) and a PDF is read for at most {@code maxPdfPages} pages.
 */
public final class DocumentReader {

    private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}(#{1,6})[ \\t]+(.*?)[ \\t#]*$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");
    private static final Pattern FRONT_MATTER_TITLE = Pattern.compile("(?m)^title:[ \\t]*['\"]?(.*?)['\"]?[ \\t]*$");
    private static final int BINARY_PROBE = 8192;

    private final int maxTextChars;
    private final int maxPdfPages;

    public DocumentReader(int maxTextChars, int maxPdfPages) {
        this.maxTextChars = maxTextChars;
        this.maxPdfPages = maxPdfPages;
    }

    /** The document type of {@code file} by its extension, or empty when planvm does not read it. */
    public static Optional<String> typeOf(Path file) {
        String name =
                file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1);
        return switch (extension) {
            case "md", "markdown", "mdx" -> Optional.of("markdown");
            case "txt", "text", "rst", "adoc" -> Optional.of("text");
            case "html", "htm", "xhtml" -> Optional.of("html");
            case "pdf" -> Optional.of("pdf");
            default -> Optional.empty();
        };
    }

    /** The parsed document; {@code file} names it (and gives the fallback title), {@code bytes} is its content. */
    public ParsedDocument read(Path file, byte[] bytes) throws DocumentException {
        String type =
                typeOf(file).orElseThrow(() -> new DocumentException("is not a Markdown, text, HTML or PDF file"));
        String fallbackTitle = stem(file);
        return switch (type) {
            case "markdown" -> markdown(decode(bytes), fallbackTitle);
            case "text" -> text(decode(bytes), fallbackTitle);
            case "html" -> new HtmlText(maxTextChars).read(bytes, fallbackTitle);
            case "pdf" -> new PdfText(maxTextChars, maxPdfPages).read(bytes, fallbackTitle);
            default -> throw new IllegalStateException(type);
        };
    }

    ParsedDocument text(String decoded, String fallbackTitle) {
        boolean truncated = decoded.length() > maxTextChars;
        String text = truncated ? decoded.substring(0, maxTextChars) : decoded;
        List<ParsedDocument.Section> sections = new SectionBuilder().sections(text, text.length());
        return new ParsedDocument("text", fallbackTitle, text, sections, truncated);
    }

    ParsedDocument markdown(String decoded, String fallbackTitle) {
        boolean truncated = decoded.length() > maxTextChars;
        String text = truncated ? decoded.substring(0, maxTextChars) : decoded;
        String frontMatterTitle = null;
        int bodyStart = 0;
        if (text.startsWith("---\n") || text.startsWith("---\r\n")) {
            int close = text.indexOf("\n---", 3);
            if (close > 0 && close < 8192) {
                Matcher title = FRONT_MATTER_TITLE.matcher(text.substring(0, close));
                if (title.find() && !title.group(1).isBlank()) {
                    frontMatterTitle = title.group(1).strip();
                }
                int lineEnd = text.indexOf('\n', close + 1);
                bodyStart = lineEnd < 0 ? text.length() : lineEnd + 1;
            }
        }
        SectionBuilder builder = new SectionBuilder();
        String fence = null;
        int lineStart = bodyStart;
        while (lineStart < text.length()) {
            int newline = text.indexOf('\n', lineStart);
            int lineEnd = newline < 0 ? text.length() : newline;
            String line = text.substring(lineStart, lineEnd);
            Matcher fenceMatch = FENCE.matcher(line);
            if (fenceMatch.find()) {
                if (fence == null) {
                    fence = fenceMatch.group(1);
                } else if (fence.equals(fenceMatch.group(1))) {
                    fence = null;
                }
            } else if (fence == null) {
                Matcher heading =
                        ATX_HEADING.matcher(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
                if (heading.matches()) {
                    builder.heading(heading.group(1).length(), heading.group(2), lineStart);
                }
            }
            lineStart = lineEnd + 1;
        }
        List<ParsedDocument.Section> sections = withStart(builder.sections(text, text.length()), bodyStart);
        String title = frontMatterTitle != null
                ? frontMatterTitle
                : builder.firstH1() != null ? builder.firstH1() : fallbackTitle;
        return new ParsedDocument("markdown", title, text, sections, truncated);
    }

    /** The sections, the front matter left out of the first one. */
    private static List<ParsedDocument.Section> withStart(List<ParsedDocument.Section> sections, int bodyStart) {
        return sections.stream()
                .filter(s -> s.end() > bodyStart)
                .map(s -> s.start() >= bodyStart ? s : new ParsedDocument.Section(s.heading(), bodyStart, s.end()))
                .toList();
    }

    /** UTF-8 text (a byte order mark dropped); a file with NUL bytes near its start is refused as binary. */
    static String decode(byte[] bytes) throws DocumentException {
        int probe = Math.min(bytes.length, BINARY_PROBE);
        for (int i = 0; i < probe; i++) {
            if (bytes[i] == 0) {
                throw new DocumentException("looks like a binary file (it holds NUL bytes), not text");
            }
        }
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException notUtf8) {
            text = new String(bytes, StandardCharsets.ISO_8859_1);
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    static String stem(Path file) {
        String name = file.getFileName() == null
                ? file.toString()
                : file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
