package dev.planvm.knowledge.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentReaderTest {

    private final DocumentReader reader = new DocumentReader(100_000, 50);

    private ParsedDocument read(String name, String content) throws DocumentException {
        return reader.read(Path.of(name), content.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> headings(ParsedDocument doc) {
        return doc.sections().stream().map(ParsedDocument.Section::heading).toList();
    }

    @Test
    void markdown_sections_follow_the_heading_path_and_the_first_h1_is_the_title() throws Exception {
        ParsedDocument doc = read("guide.md", """
                Intro before any heading.

                # Guide
                Text.
                ## Install
                Steps.
                ### From source
                Build it.
                ## Use
                Run it.
                """);
        assertThat(doc.title()).isEqualTo("Guide");
        assertThat(headings(doc))
                .containsExactly("", "Guide", "Guide > Install", "Guide > Install > From source", "Guide > Use");
        ParsedDocument.Section install = doc.sections().get(2);
        assertThat(doc.text().substring(install.start(), install.end())).isEqualTo("## Install\nSteps.\n");
    }

    @Test
    void markdown_headings_inside_code_fences_are_not_headings() throws Exception {
        ParsedDocument doc = read("code.md", """
                # Real
                ```bash
                # a shell comment, not a heading
                ```
                after
                """);
        assertThat(headings(doc)).containsExactly("Real");
    }

    @Test
    void markdown_front_matter_gives_the_title_and_is_left_out_of_the_text_sections() throws Exception {
        ParsedDocument doc = read("post.md", "---\ntitle: \"Front Title\"\ndate: 2024\n---\nBody text.\n");
        assertThat(doc.title()).isEqualTo("Front Title");
        ParsedDocument.Section body = doc.sections().get(0);
        assertThat(doc.text().substring(body.start(), body.end())).isEqualTo("Body text.\n");
    }

    @Test
    void a_text_file_is_one_section_titled_by_its_file_name() throws Exception {
        ParsedDocument doc = read("notes.txt", "first line\n\nsecond paragraph");
        assertThat(doc.title()).isEqualTo("notes");
        assertThat(headings(doc)).containsExactly("");
        assertThat(doc.type()).isEqualTo("text");
    }

    @Test
    void html_keeps_title_and_headings_and_drops_scripts_and_styles() throws Exception {
        ParsedDocument doc = read("page.html", """
                <html><head><title>The Page</title><style>p{color:red}</style></head>
                <body><script>var secret = "zebra";</script>
                <h1>Top</h1><p>One <b>bold</b> word.</p><h2>Sub</h2><p>Two.</p><pre>a  b
                c</pre></body></html>""");
        assertThat(doc.title()).isEqualTo("The Page");
        assertThat(doc.text())
                .contains("One bold word.")
                .contains("a  b\nc")
                .doesNotContain("zebra")
                .doesNotContain("color");
        assertThat(headings(doc)).containsExactly("Top", "Top > Sub");
    }

    @Test
    void deeply_nested_html_is_read_without_a_stack_overflow() throws Exception {
        String deep = "<div>".repeat(100_000) + "deep text" + "</div>".repeat(100_000);
        ParsedDocument doc = read("deep.html", "<html><body>" + deep + "</body></html>");
        assertThat(doc.text()).contains("deep text");
    }

    @Test
    void a_pdf_gives_one_section_per_page_and_its_information_title(@TempDir Path dir) throws Exception {
        byte[] pdf = pdf(List.of("Page one text.", "Page two text."));
        ParsedDocument doc = reader.read(Path.of("doc.pdf"), pdf);
        assertThat(doc.type()).isEqualTo("pdf");
        assertThat(headings(doc)).containsExactly("page 1", "page 2");
        assertThat(doc.text()).contains("Page one text.").contains("Page two text.");
        assertThat(doc.title()).isEqualTo("doc");
    }

    @Test
    void a_pdf_is_read_up_to_the_page_limit_and_marked_truncated() throws Exception {
        DocumentReader twoPages = new DocumentReader(100_000, 2);
        ParsedDocument doc = twoPages.read(Path.of("long.pdf"), pdf(List.of("one", "two", "three")));
        assertThat(headings(doc)).containsExactly("page 1", "page 2");
        assertThat(doc.truncated()).isTrue();
    }

    @Test
    void a_pdf_whose_reading_spends_its_time_budget_keeps_what_was_read_and_is_marked_truncated() throws Exception {
        byte[] pdf = pdf(List.of("one", "two", "three"));
        ParsedDocument spent = new PdfText(1_000_000, 100, java.time.Duration.ZERO).read(pdf, "spent");
        assertThat(spent.truncated()).isTrue();
        assertThat(spent.text()).doesNotContain("two", "three");
        ParsedDocument whole = new PdfText(1_000_000, 100).read(pdf, "whole");
        assertThat(whole.truncated()).isFalse();
        assertThat(whole.text()).contains("one", "two", "three");
    }

    @Test
    void a_damaged_pdf_is_refused_in_one_sentence() {
        assertThatThrownBy(() -> reader.read(
                        Path.of("bad.pdf"), "%PDF-1.7\nnot really a pdf".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(DocumentException.class)
                .hasMessageStartingWith("cannot be read as PDF")
                .hasMessageNotContaining("\n");
    }

    @Test
    void text_is_cut_at_the_limit_and_marked_truncated() throws Exception {
        DocumentReader small = new DocumentReader(1000, 10);
        ParsedDocument doc = small.read(Path.of("big.txt"), "x".repeat(5000).getBytes(StandardCharsets.UTF_8));
        assertThat(doc.text()).hasSize(1000);
        assertThat(doc.truncated()).isTrue();
    }

    @Test
    void a_binary_file_with_a_text_extension_is_refused() {
        assertThatThrownBy(() -> reader.read(Path.of("blob.txt"), new byte[] {'a', 0, 'b'}))
                .isInstanceOf(DocumentException.class)
                .hasMessageContaining("binary");
    }

    @Test
    void a_file_that_is_not_utf8_is_read_as_latin1() throws Exception {
        ParsedDocument doc = reader.read(Path.of("old.txt"), new byte[] {'c', 'a', 'f', (byte) 0xE9});
        assertThat(doc.text()).isEqualTo("café");
    }

    @Test
    void only_markdown_text_html_and_pdf_are_read() {
        assertThat(DocumentReader.typeOf(Path.of("a.MD"))).contains("markdown");
        assertThat(DocumentReader.typeOf(Path.of("a.htm"))).contains("html");
        assertThat(DocumentReader.typeOf(Path.of("a.docx"))).isEmpty();
        assertThat(DocumentReader.typeOf(Path.of("Makefile"))).isEmpty();
    }

    private static byte[] pdf(List<String> pages) throws IOException {
        try (PDDocument pdf = new PDDocument();
                ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            for (String text : pages) {
                PDPage page = new PDPage();
                pdf.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(pdf, page)) {
                    content.beginText();
                    content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                    content.newLineAtOffset(50, 700);
                    content.showText(text);
                    content.endText();
                }
            }
            pdf.save(out);
            return out.toByteArray();
        }
    }
}
