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
 * title as the title. Bounded: no stream may inflate past {@link PdfStreams#MAX_STREAM_BYTES} (checked
 * before PDFBox decodes any: a decompression bomb is skipped), PDFBox's scratch memory is capped, at most {@code maxPages} pages are
 * read, the text stops at {@code maxTextChars} (the stripper is stopped there, not run to the end), and
 * the extraction stops when its time budget ({@value #DEFAULT_BUDGET_SECONDS} s) is spent, checked between
 * pages and at every piece of text: a hostile page cannot keep the indexing busy. What was read is kept
 * and the document is marked truncated.
 */
final class PdfText {

    private static final long SCRATCH_BYTES = 64L << 20;
    static final int DEFAULT_BUDGET_SECONDS = 60;

    private final int maxTextChars;
    private final int maxPages;
    private final java.time.Duration budget;
    private final long maxStreamBytes;

    PdfText(int maxTextChars, int maxPages) {
        this(maxTextChars, maxPages, java.time.Duration.ofSeconds(DEFAULT_BUDGET_SECONDS));
    }

    PdfText(int maxTextChars, int maxPages, java.time.Duration budget) {
        this(maxTextChars, maxPages, budget, PdfStreams.MAX_STREAM_BYTES);
    }

    PdfText(int maxTextChars, int maxPages, java.time.Duration budget, long maxStreamBytes) {
        this.maxTextChars = maxTextChars;
        this.maxPages = maxPages;
        this.budget = budget;
        this.maxStreamBytes = maxStreamBytes;
    }

    private static String seconds(java.time.Duration budget) {
        return budget.toMillis() % 1000 == 0 ? budget.toSeconds() + " s" : budget.toMillis() + " ms";
    }

    ParsedDocument read(byte[] bytes, String fallbackTitle) throws DocumentException {
        long deadline = System.nanoTime() + budget.toNanos();
        PdfStreams streams = new PdfStreams(maxStreamBytes, deadline, seconds(budget));
        streams.scanFile(bytes);
        try (PDDocument pdf = Loader.loadPDF(
                bytes, "", null, null, MemoryUsageSetting.setupMainMemoryOnly(SCRATCH_BYTES).streamCache)) {
            streams.scanLoaded(pdf);
            SectionBuilder sections = new SectionBuilder();
            BoundedWriter out = new BoundedWriter(maxTextChars, deadline);
            int pages = pdf.getNumberOfPages();
            boolean truncated = pages > maxPages;
            PDFTextStripper stripper = new PDFTextStripper();
            stripper.setSortByPosition(false);
            for (int page = 1; page <= Math.min(pages, maxPages) && !out.full; page++) {
                if (out.overTime()) {
                    out.full = true;
                    break;
                }
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
            String title = pdf.getDocumentInformation() == null
                    ? null
                    : pdf.getDocumentInformation().getTitle();
            return new ParsedDocument(
                    "pdf",
                    title == null || title.isBlank() ? fallbackTitle : title.strip(),
                    text,
                    sections.sections(text, text.length()),
                    truncated);
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
        private static final long serialVersionUID = 1L;

        LimitReached() {
            super("text limit reached", null);
        }
    }

    /** Collects text up to a limit, then stops the stripper. */
    private static final class BoundedWriter extends Writer {
        final StringBuilder text = new StringBuilder();
        private final int max;
        private final long deadline;
        boolean full;

        BoundedWriter(int max, long deadline) {
            this.max = max;
            this.deadline = deadline;
        }

        boolean overTime() {
            return System.nanoTime() - deadline > 0;
        }

        @Override
        public void write(char[] buffer, int offset, int length) throws IOException {
            if (overTime()) {
                full = true;
                throw new LimitReached();
            }
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
        public void flush() {}

        @Override
        public void close() {}
    }
}
