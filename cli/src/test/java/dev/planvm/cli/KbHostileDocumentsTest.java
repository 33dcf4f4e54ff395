package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm kb index} on hostile documents, in a child JVM with a small heap: a PDF whose Flate
 * content stream inflates to 300 MiB is skipped with a warning naming it, and every other document is
 * indexed.
 */
@Tag("slow") // soak: a 300 MiB PDF bomb in a child JVM; PdfBombTest checks the bound in process (mvn -Pslow)
class KbHostileDocumentsTest {

    @TempDir
    Path dir;

    @Test
    void a_pdf_that_inflates_to_300_mib_is_skipped_with_a_warning_and_the_others_are_indexed() throws Exception {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("tidb.md"), "# TiDB\nPlacement rules decide where replicas live.\n");
        Files.writeString(docs.resolve("bread.txt"), "Knead the dough for ten minutes, then let it rise.\n");
        byte[] bomb = pdfWithContent(deflated(300L << 20));
        assertThat(bomb.length).as("the PDF is small").isLessThan(1 << 20);
        Files.write(docs.resolve("bomb.pdf"), bomb);

        Child index = planvm(
                "-Xmx256m",
                "kb",
                "index",
                docs.toString(),
                "--kb",
                "notes",
                "--root",
                dir.resolve("kb").toString());

        assertThat(index.err()).doesNotContain("OutOfMemoryError").doesNotContain("\tat ");
        assertThat(index.exitCode()).as(index.out() + index.err()).isZero();
        assertThat(index.out()).startsWith("notes: 2 added, 0 changed, 0 unchanged, 0 removed");
        List<String> warnings =
                index.err().lines().filter(l -> l.contains("bomb.pdf")).toList();
        assertThat(warnings)
                .singleElement()
                .asString()
                .contains("docs/bomb.pdf")
                .contains("skipped")
                .contains("inflates to more than 16 MiB");
    }

    /**
     * {@code size} bytes of {@code 0 0 0 ...} (page content: operands, which PDFBox collects until an
     * operator comes), deflated: about 1,000 times smaller.
     */
    static byte[] deflated(long size) {
        Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] input = new byte[1 << 20];
        for (int i = 0; i < input.length; i += 2) {
            input[i] = '0';
            input[i + 1] = ' ';
        }
        byte[] buffer = new byte[1 << 16];
        for (long left = size; left > 0; left -= input.length) {
            deflater.setInput(input, 0, (int) Math.min(input.length, left));
            while (!deflater.needsInput()) {
                out.write(buffer, 0, deflater.deflate(buffer));
            }
        }
        deflater.finish();
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }

    /** A one-page PDF whose page content is this Flate stream, written by hand (objects, xref table, trailer). */
    static byte[] pdfWithContent(byte[] flate) throws IOException {
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        List<Integer> offsets = new ArrayList<>();
        write(pdf, "%PDF-1.7\n");
        String[] objects = {
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"
        };
        for (int i = 0; i < objects.length; i++) {
            offsets.add(pdf.size());
            write(pdf, (i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n");
        }
        offsets.add(pdf.size());
        write(pdf, "4 0 obj\n<< /Length " + flate.length + " /Filter /FlateDecode >>\nstream\n");
        pdf.write(flate);
        write(pdf, "\nendstream\nendobj\n");
        int xref = pdf.size();
        StringBuilder table = new StringBuilder("xref\n0 5\n0000000000 65535 f \n");
        for (int offset : offsets) {
            table.append(String.format("%010d 00000 n \n", offset));
        }
        write(pdf, table + "trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n" + xref + "\n%%EOF\n");
        return pdf.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private record Child(int exitCode, String out, String err) {}

    /** {@code planvm ARGS} in a child JVM with this heap option. */
    private Child planvm(String heap, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                heap,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process child = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!child.waitFor(180, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("planvm " + String.join(" ", args) + " hung for 180 s");
        }
        return new Child(
                child.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
