package dev.planvm.knowledge.internal;

import java.io.IOException;
import java.io.Writer;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.MemoryUsageSetting;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.apache.pdfbox.text.PDFTextStripper;

/**
 * The text of a PDF (Apache PDFBox), one section per page ({@code page N}), the document information's
 * title as the title. Bounded: PDFBox's scratch memory is capped, at most {@code maxPages} pages are
 * read, and the text stops at {@code maxTextChars} (the stripper is stopped there, not run to the end).
 */
final class PdfText {

    private static final long SCRATCH_BYTES = 64L << 20;

    private final int maxTextChars;
    private final int maxPages;

    PdfText(int maxTextChars, int maxPages) {
        this.maxTextChars = maxTextChars;
        this.maxPages = maxPages;
    }

    ParsedDocument read(byte[] bytes, String fallbackTitle) throws DocumentException {
        try (PDDocument pdf = Loader.loadPDF(bytes, "", null, null, MemoryUsageSetting.setupMainMemoryOnly(SCRATCH_BYTES).streamCache)) {
            SectionBuilder sections = new SectionBuilder();
            BoundedWriter out = new BoundedWriter(maxTextChars);
            int pages = pdf.getNumberOfPages();
            boolean truncated = pages > maxPages;
            PDFTextStripper stripper = new PDFTextStripper();
            stripper.setSortByPosition(false);
            for (int page = 1; page <= Math.min(pages, maxPages) && !out.full; page++) {
                sections.heading(1, "page " + page, out.text.length());
                stripper.setStartPage(page);
                stripper.setEndPage(page);
                try {
                    stripper.writeText(pdf, out);
                } catch (LimitReached stop) {
                    truncated = true;
                }
                out.paragraph();
            }
            truncated |= out.full;
            String text = out.text.toString();
            String title = pdf.getDocumentInformation() == null ? null : pdf.getDocumentInformation().getTitle();
            return new ParsedDocument("pdf", title == null || title.isBlank() ? fallbackTitle : title.strip(), text,
                    sections.sections(text, text.length()), truncated);
        } catch (InvalidPasswordException e) {
            throw new DocumentException("is an encrypted PDF that needs a password");
        } catch (IOException | RuntimeException e) {
            throw new DocumentException("cannot be read as PDF: " + firstLine(e.getMessage()));
        } catch (StackOverflowError e) {
            throw new DocumentException("cannot be read as PDF: its objects nest too deeply");
        }
    }

    private static String firstLine(String message) {
        if (message == null || message.isBlank()) {
            return "it is damaged";
        }
        String line = message.lines().findFirst().orElse(message).strip();
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }

    /** Thrown by the writer to stop the stripper at the size limit. */
    private static final class LimitReached extends IOException {
        LimitReached() {
            super("text limit reached", null);
        }
    }

    /** Collects text up to a limit, then stops the stripper. */
    private static final class BoundedWriter extends Writer {
        final StringBuilder text = new StringBuilder();
        private final int max;
        boolean full;

        BoundedWriter(int max) {
            this.max = max;
        }

        @Override
        public void write(char[] buffer, int offset, int length) throws IOException {
            int room = max - text.length();
            if (length > room) {
                text.append(buffer, offset, Math.max(0, room));
                full = true;
                throw new LimitReached();
            }
            text.append(buffer, offset, length);
        }

        void paragraph() {
            if (!full && text.length() + 2 <= max && text.length() > 0) {
                text.append("\n\n");
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
