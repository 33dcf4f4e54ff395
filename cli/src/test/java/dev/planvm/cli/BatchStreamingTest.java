package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm batch} under real use: lines stream in input order as plans finish, Ctrl-C keeps every
 * finished line and exits 130, {@code --resume-from} runs only what is missing, and the progress bar
 * shows on a terminal even when stdout goes to a file.
 */
class BatchStreamingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Plan pX calls tool 'slow'; its cassette answers after {@code millis} with --replay-timing. */
    private void plan(String name, long millis) throws IOException {
        Files.writeString(dir.resolve(name + ".json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow", "tool_params": {"plan": "%s"},
                  "output_vars": "final_answer"}}]""".formatted(name));
        Files.writeString(dir.resolve(name + ".cassette.json"), """
                {"format": "planvm-cassette/1", "interactions": [{"type": "tool", "tool": "slow", "params": {"plan": "%s"},
                  "output": "done %s", "duration_ms": %d}]}""".formatted(name, name, millis));
    }

    private static List<String> files(Path out) throws IOException {
        List<String> files = new ArrayList<>();
        for (String line : Files.readAllLines(out)) {
            JsonNode json = JSON.readTree(line);
            assertThat(json.path("status").asText()).isEqualTo("succeeded");
            files.add(Path.of(json.path("file").asText()).getFileName().toString());
        }
        return files;
    }

    @Test
    void lines_come_in_input_order_whatever_order_the_plans_finish_in() throws Exception {
        plan("p0", 900);
        plan("p1", 0);
        plan("p2", 300);
        plan("p3", 0);
        Path out = dir.resolve("out.jsonl");

        CliRun run = CliRun.of(
                "batch",
                dir.toString(),
                "--replay-dir",
                dir.toString(),
                "--replay-timing",
                "--concurrency",
                "4",
                "--out",
                out.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(files(out)).containsExactly("p0.json", "p1.json", "p2.json", "p3.json");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void ctrl_c_keeps_every_finished_line_exits_130_and_resume_runs_only_the_rest() throws Exception {
        for (int i = 0; i < 8; i++) {
            plan("p" + i, 700);
        }
        Path out = dir.resolve("out.jsonl");
        Process batch = child(
                "batch",
                dir.toString(),
                "--replay-dir",
                dir.toString(),
                "--replay-timing",
                "--concurrency",
                "2",
                "--out",
                out.toString(),
                "--no-progress");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (lines(out) < 2 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(lines(out)).as("lines are written while the batch runs").isGreaterThanOrEqualTo(2);
        new ProcessBuilder("kill", "-INT", Long.toString(batch.pid())).start().waitFor();

        assertThat(batch.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = new String(batch.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(batch.exitValue()).as(err).isEqualTo(130);
        assertThat(err)
                .contains("batch: interrupted: ")
                .contains("--resume-from")
                .doesNotContain("Exception");
        List<String> first = files(out);
        assertThat(first).hasSizeBetween(2, 7).doesNotHaveDuplicates();

        CliRun resumed =
                CliRun.of("batch", dir.toString(), "--replay-dir", dir.toString(), "--resume-from", out.toString());

        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.err()).contains((first.size()) + " plans skipped");
        List<String> all = files(out);
        assertThat(all).hasSize(8).doesNotHaveDuplicates().startsWith(first.toArray(String[]::new));
    }

    @Test
    void resume_cuts_off_a_line_the_killed_batch_left_unfinished() throws Exception {
        plan("p0", 0);
        plan("p1", 0);
        Path out = dir.resolve("out.jsonl");
        CliRun first = CliRun.of(
                "batch", dir.resolve("p0.json").toString(), "--replay-dir", dir.toString(), "--out", out.toString());
        assertThat(first.exitCode()).isZero();
        Files.writeString(
                out, Files.readString(out) + "{\"file\": \"p1.js", java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);

        CliRun resumed =
                CliRun.of("batch", dir.toString(), "--replay-dir", dir.toString(), "--resume-from", out.toString());

        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(files(out)).containsExactly("p0.json", "p1.json");
        Files.writeString(out, "not a batch line\n");
        CliRun foreign =
                CliRun.of("batch", dir.toString(), "--replay-dir", dir.toString(), "--resume-from", out.toString());
        assertThat(foreign.exitCode()).isEqualTo(1);
        assertThat(foreign.err()).contains("line 1 is not JSON, so this is not a batch's output");
    }

    @Test
    void the_progress_bar_shows_on_a_terminal_even_when_stdout_goes_to_a_file() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")), "needs script(1) for a pseudo-terminal");
        for (int i = 0; i < 4; i++) {
            plan("p" + i, 300);
        }
        Path out = dir.resolve("out.jsonl");
        String command = String.join(
                        " ",
                        quoted(javaCommand(
                                "batch",
                                dir.toString(),
                                "--replay-dir",
                                dir.toString(),
                                "--replay-timing",
                                "--concurrency",
                                "1")))
                + " > " + out;
        Process script = new ProcessBuilder("/usr/bin/script", "-qec", command, "/dev/null")
                .redirectErrorStream(true)
                .start();
        String terminal = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(files(out)).hasSize(4);
        assertThat(terminal).contains("batch").contains("4/4").contains("plans/s");
    }

    private static long lines(Path out) throws IOException {
        return Files.exists(out) ? Files.readAllLines(out).size() : 0;
    }

    private static List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private static List<String> quoted(List<String> words) {
        return words.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").toList();
    }

    private Process child(String... args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(javaCommand(args)).directory(dir.toFile());
        builder.environment().put("PLANVM_STORE", dir.resolve("runs.db").toString());
        return builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }
}
