package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --trace}, {@code --record}, {@code --out} and {@code --junit-xml}: what is not a regular
 * file is written through, never replaced; a failed write names the file; a run whose answer was
 * computed prints it even when its trace cannot be written; a value too deep for the trace is
 * truncated in the trace, not fatal to it.
 */
class OutputFilesCommandTest {

    private static final String HELLO =
            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"Hello\"}}]";

    @TempDir
    Path dir;

    private String write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file.toString();
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    private Path fifo(String name) throws Exception {
        Path fifo = dir.resolve(name);
        Process mkfifo =
                new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertThat(mkfifo.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(mkfifo.exitValue()).isZero();
        return fifo;
    }

    private static boolean isFifo(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .isOther();
    }

    private static CompletableFuture<String> reader(Path fifo) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readString(fifo);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void trace_to_a_fifo_behind_a_symlink_is_written_through_and_nothing_is_replaced() throws Exception {
        Path fifo = fifo("pipe");
        Path devStdout = Files.createSymbolicLink(dir.resolve("stdout"), fifo);
        String plan = write("p.json", HELLO);
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> { // not hung: no timing target
                    CompletableFuture<String> trace = reader(fifo);
                    CliRun run = planvm("run", plan, "--trace", devStdout.toString());
                    assertThat(run.exitCode()).as(run.err()).isZero();
                    assertThat(new ObjectMapper()
                                    .readTree(trace.get(60, TimeUnit.SECONDS))
                                    .path("result")
                                    .asText())
                            .isEqualTo("Hello");
                });
        assertThat(Files.isSymbolicLink(devStdout)).isTrue();
        assertThat(isFifo(fifo)).isTrue();
    }

    @Test
    void batch_out_and_test_junit_xml_keep_a_symlink_and_write_its_target() throws Exception {
        Files.createDirectory(dir.resolve("plans"));
        write("plans/hello.json", HELLO);
        write("plans/hello.expected.json", "{\"final_answer\": \"Hello\"}");
        Path results = Files.writeString(dir.resolve("results.jsonl"), "");
        Path link = Files.createSymbolicLink(dir.resolve("latest.jsonl"), results.getFileName());
        CliRun batch = planvm("batch", dir.resolve("plans").toString(), "--out", link.toString());
        assertThat(batch.exitCode()).as(batch.err()).isZero();
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(results)).contains("\"status\":\"succeeded\"");

        Path report = Files.writeString(dir.resolve("report.xml"), "");
        Path reportLink = Files.createSymbolicLink(dir.resolve("junit.xml"), report);
        CliRun test = planvm("test", dir.resolve("plans").toString(), "--junit-xml", reportLink.toString());
        assertThat(test.exitCode()).as(test.out() + test.err()).isZero();
        assertThat(Files.isSymbolicLink(reportLink)).isTrue();
        assertThat(Files.readString(report)).contains("<testsuite");
    }

    @Test
    void an_answer_is_printed_even_when_the_trace_cannot_be_written_and_the_message_names_the_file() throws Exception {
        String plan = write("p.json", HELLO);
        Path notADirectory = Files.writeString(dir.resolve("file"), "");
        Path trace = notADirectory.resolve("trace.json");

        CliRun run = planvm("run", plan, "--trace", trace.toString());

        assertThat(run.out()).isEqualTo("Hello\n");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .isEqualTo(plan + ": cannot write " + trace + ": " + notADirectory + " is not a directory\n");
    }

    @Test
    void an_answer_is_printed_even_when_the_recorded_cassette_cannot_be_written() throws Exception {
        String plan = write("p.json", HELLO);
        Path cassette = Files.createDirectory(dir.resolve("cassette.json"));

        CliRun run = planvm("run", plan, "--record", cassette.toString());

        assertThat(run.out()).isEqualTo("Hello\n");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo(plan + ": cannot write " + cassette + ": it is a directory\n");
    }

    @Test
    void a_value_too_deep_for_the_trace_is_truncated_in_it_and_the_run_keeps_its_answer() throws Exception {
        String plan = write("p.json", """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${len(deep)}"}}]""");
        String deep = "[".repeat(999) + "]".repeat(999);
        Path trace = dir.resolve("trace.json");

        CliRun run = planvm("run", plan, "--var", "deep=" + deep, "--trace", trace.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("1\n");
        JsonNode written = new ObjectMapper().readTree(trace.toFile());
        assertThat(written.at("/inputs/deep/truncated").asText()).isEqualTo("an array nested 999 levels deep");
        assertThat(written.path("result").asInt()).isEqualTo(1);
    }
}
