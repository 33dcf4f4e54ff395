package dev.planvm.knowledge;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/** The small fixed corpus of the tests: Markdown, text and HTML from test resources, and a PDF written with PDFBox. */
final class Corpus {

    static final List<String> RESOURCES = List.of("tides.md", "sourdough.md", "volcanoes.txt", "chess.html");

    private Corpus() {}

    /** Writes the corpus into {@code dir} (created) and returns it. */
    static Path writeTo(Path dir) {
        try {
            Files.createDirectories(dir);
            for (String name : RESOURCES) {
                try (InputStream in = Corpus.class.getResourceAsStream("/corpus/" + name)) {
                    Files.write(dir.resolve(name), in.readAllBytes());
                }
            }
            writePdf(
                    dir.resolve("bees.pdf"),
                    "Honeybees",
                    List.of(
                            List.of(
                                    "Honeybees make honey from the nectar of flowers.",
                                    "Forager bees carry nectar back to the hive in their honey stomachs.",
                                    "House bees pass it from mouth to mouth, adding enzymes that split its sugars,",
                                    "then fan it with their wings until most of the water evaporates",
                                    "and seal the ripe honey into wax cells."),
                            List.of(
                                    "A colony has one queen, thousands of female workers and, in summer, some drones.",
                                    "Workers communicate where food is with the waggle dance.")));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF whose pages hold these lines, with a title in its document information. */
    static void writePdf(Path file, String title, List<List<String>> pages) throws IOException {
        try (PDDocument pdf = new PDDocument()) {
            PDDocumentInformation info = new PDDocumentInformation();
            info.setTitle(title);
            pdf.setDocumentInformation(info);
            PDType1Font font = new PDType1Font(Standard14Fonts.FontName.HELVETICA);
            for (List<String> lines : pages) {
                PDPage page = new PDPage();
                pdf.addPage(page);
                try (PDPageContentStream content = new PDPageContentStream(pdf, page)) {
                    content.beginText();
                    content.setFont(font, 11);
                    content.newLineAtOffset(50, 700);
                    for (String line : lines) {
                        content.showText(line);
                        content.newLineAtOffset(0, -16);
                    }
                    content.endText();
                }
            }
            pdf.save(file.toFile());
        }
    }
}
