package dev.planvm.knowledge.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * PDFs whose streams inflate far beyond their size are skipped before PDFBox decodes them (it decodes a
 * whole stream into memory): a Flate page content, the same behind an ASCII-hex filter that hides it
 * from a scan of the raw bytes, a bomb that claims to be an image, and many streams each under the
 * limit that together spend the time budget. Written by hand: objects, cross-reference table, trailer.
 */
class PdfBombTest {

    private static final String TEXT = "BT /F1 12 Tf 72 700 Td (Hello from the page) Tj ET\n";

    @Test
    void a_flate_content_stream_that_inflates_past_the_limit_skips_the_document() {
        byte[] pdf = pdf(List.of(stream("/Filter /FlateDecode", deflate(TEXT, 20 << 20))));
        assertThatThrownBy(() -> new PdfText(1_000_000, 10).read(pdf, "bomb"))
                .isInstanceOfSatisfying(
                        DocumentException.class, e -> assertThat(e.skipped()).isTrue())
                .hasMessage("it holds a stream that inflates to more than 16 MiB, the limit for one PDF stream"
                        + " (a decompression bomb?)");
    }

    @Test
    void a_bomb_behind_a_filter_the_raw_scan_cannot_see_through_is_counted_once_loaded() {
        byte[] hex = HexFormat.of().formatHex(deflate(TEXT, 20 << 20)).getBytes(StandardCharsets.US_ASCII);
        byte[] pdf = pdf(List.of(stream("/Filter [/ASCIIHexDecode /FlateDecode]", hex)));
        assertThatThrownBy(() -> new PdfText(1_000_000, 10).read(pdf, "hex"))
                .isInstanceOfSatisfying(
                        DocumentException.class, e -> assertThat(e.skipped()).isTrue())
                .hasMessageContaining("inflates to more than 16 MiB");
    }

    @Test
    void a_bomb_that_claims_to_be_an_image_is_never_decoded() throws Exception {
        byte[] pdf = pdf(List.of(stream("/Subtype /Image /Filter /FlateDecode", deflate(TEXT, 20 << 20))));
        ParsedDocument doc = new PdfText(1_000_000, 10).read(pdf, "image");
        assertThat(doc.text()).doesNotContain("Hello");
        ParsedDocument small = new PdfText(1_000_000, 10)
                .read(pdf(List.of(stream("/Filter /FlateDecode", deflate(TEXT, TEXT.length())))), "small");
        assertThat(small.text()).contains("Hello from the page");
    }

    @Test
    void streams_each_under_the_limit_that_take_longer_than_the_time_budget_skip_the_document() {
        byte[] each = deflate(TEXT, 15 << 20);
        List<byte[]> pages = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            pages.add(stream("/Filter /FlateDecode", each));
        }
        byte[] pdf = pdf(pages);
        assertThatThrownBy(() -> new PdfText(1_000_000, 100, Duration.ofMillis(50)).read(pdf, "slow"))
                .isInstanceOfSatisfying(
                        DocumentException.class, e -> assertThat(e.skipped()).isTrue())
                .hasMessage("its streams take more than 50 ms to inflate");
    }

    /**
     * {@code prefix}, then {@code 0 0 0 ...} up to {@code size} bytes (operands that PDFBox collects until an
     * operator comes, with no glyph to lay out), deflated: about 1,000 times smaller.
     */
    static byte[] deflate(String prefix, int size) {
        byte[] start = prefix.getBytes(StandardCharsets.ISO_8859_1);
        byte[] input = new byte[1 << 20];
        for (int i = 0; i < input.length; i++) {
            input[i] = i % 2 == 0 ? (byte) '0' : (byte) ' ';
        }
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        deflater.setInput(start);
        for (int left = size - start.length; ; left -= input.length) {
            while (!deflater.needsInput()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
            if (left <= 0) {
                break;
            }
            deflater.setInput(input, 0, Math.min(input.length, left));
        }
        deflater.finish();
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }

    /** A stream object's dictionary entries (besides its length) and data, as one page's content. */
    static byte[] stream(String entries, byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, "<< /Length " + data.length + " " + entries + " >>\nstream\n");
        out.writeBytes(data);
        write(out, "\nendstream");
        return out.toByteArray();
    }

    /** A PDF with one page per content stream (Helvetica as /F1), objects numbered in order. */
    static byte[] pdf(List<byte[]> contents) {
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        List<Integer> offsets = new ArrayList<>();
        int pages = contents.size();
        StringBuilder kids = new StringBuilder();
        for (int i = 0; i < pages; i++) {
            kids.append(4 + 2 * i).append(" 0 R ");
        }
        write(pdf, "%PDF-1.7\n");
        List<byte[]> objects = new ArrayList<>();
        objects.add(ascii("<< /Type /Catalog /Pages 2 0 R >>"));
        objects.add(ascii("<< /Type /Pages /Kids [" + kids + "] /Count " + pages + " >>"));
        objects.add(ascii("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"));
        for (int i = 0; i < pages; i++) {
            objects.add(ascii("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents " + (5 + 2 * i)
                    + " 0 R /Resources << /Font << /F1 3 0 R >> >> >>"));
            objects.add(contents.get(i));
        }
        for (int i = 0; i < objects.size(); i++) {
            offsets.add(pdf.size());
            write(pdf, (i + 1) + " 0 obj\n");
            pdf.writeBytes(objects.get(i));
            write(pdf, "\nendobj\n");
        }
        int xref = pdf.size();
        StringBuilder table = new StringBuilder("xref\n0 " + (objects.size() + 1) + "\n0000000000 65535 f \n");
        for (int offset : offsets) {
            table.append(String.format("%010d 00000 n \n", offset));
        }
        write(
                pdf,
                table + "trailer\n<< /Size " + (objects.size() + 1) + " /Root 1 0 R >>\nstartxref\n" + xref
                        + "\n%%EOF\n");
        return pdf.toByteArray();
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(ascii(text));
    }
}
