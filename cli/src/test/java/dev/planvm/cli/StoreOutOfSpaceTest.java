package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run store when writes fail for want of space, for real, in child JVMs: {@code planvm serve} with
 * its store on a 8 MiB tmpfs of its own (a private mount namespace: {@code unshare -rm}) that the test
 * fills and then frees; {@code planvm run} under a file-size limit ({@code ulimit -f}; HotSpot ignores
 * SIGXFSZ, so writes past it fail with EFBIG) that the test lifts afterwards.
 */
@Tag("slow") // soak: a full tmpfs and a file-size limit in child JVMs (mvn -Pslow)
class StoreOutOfSpaceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Doubles {@code s} to 65,536 characters, then writes a new 64 Ki value per pass, 60 passes (about 4 MiB). */
    private static final String GROWING = """
            [{"seq_no": 0, "type": "assign", "parameters": {"s": "xxxxxxxx", "i": 0}},
             {"seq_no": 1, "type": "assign", "parameters": {"s": "${s + s}"}},
             {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${len(s) < 65536}", "jump_if_true": 1}},
             {"seq_no": 3, "type": "assign", "parameters": {"v": "${s}${i}", "i": "${i + 1}"}},
             {"seq_no": 4, "type": "jmp", "parameters": {"condition": "${i < 60}", "jump_if_true": 3}},
             {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${i}"}}]""";

    private static final String SMALL =
            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${1 + 1}\"}}]";

    @TempDir
    Path dir;

    @Test
    void serve_says_the_disk_is_full_and_recovers_by_itself_once_there_is_space_again() throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disk"));
        Assumptions.assumeTrue(
                canMountTmpfs(), "needs unshare -rm and mount -t tmpfs (a private mount namespace) on this machine");
        Path err = dir.resolve("serve.err");
        List<String> command = new ArrayList<>(List.of(
                "unshare",
                "-rm",
                "sh",
                "-c",
                "mount -t tmpfs -o size=8m planvm-test \"$0\" && exec \"$@\"",
                disk.toString()));
        command.addAll(java(
                "serve",
                "--port",
                "0",
                "--store",
                disk.resolve("runs.db").toString(),
                "--config",
                Files.writeString(dir.resolve("planvm.json"), "{}").toString()));
        Process serve = new ProcessBuilder(command)
                .redirectError(err.toFile())
                .redirectOutput(dir.resolve("serve.out").toFile())
                .start();
        try {
            String url = url(err);
            // the tmpfs as the server sees it (it is mounted in the server's namespace only)
            Path mounted = Path.of("/proc", String.valueOf(serve.pid()), "root")
                    .resolve(disk.toString().substring(1));
            assertThat(run(url, SMALL).path("state").asText()).isEqualTo("succeeded");

            Path slack = mounted.resolve("slack");
            Files.write(slack, new byte[1536 * 1024]);
            fill(mounted.resolve("filler"));
            Files.delete(slack); // 1.5 MiB left: the run starts, then the disk fills under it

            JsonNode full = run(url, GROWING);
            assertThat(full.path("state").asText()).as(full.toString()).isEqualTo("failed");
            assertThat(full.path("error").asText())
                    .matches(
                            "seq_no \\d+ \\((assign|jmp)\\): the step could not be recorded, so the run stops here: .*")
                    .contains(disk.resolve("runs.db") + ": the disk is full")
                    .doesNotContain("statement is not executing")
                    .doesNotContain("no transaction is active");

            // still full: a small run may fit in the space the journal already holds, or fails saying why
            JsonNode stillFull = run(url, SMALL);
            assertThat(stillFull.toString())
                    .doesNotContain("statement is not executing")
                    .doesNotContain("no transaction is active");
            if (!stillFull.path("state").asText().equals("succeeded")) {
                assertThat(stillFull.path("message").asText())
                        .as(stillFull.toString())
                        .contains(disk.resolve("runs.db") + ": the disk is full");
                if (stillFull.has("message")) { // refused before it ran: 507, decided by the failure's kind
                    assertThat(stillFull.path("error").asText()).isEqualTo("store_full");
                }
            }

            Files.delete(mounted.resolve("filler"));
            JsonNode after = run(url, SMALL);
            assertThat(after.path("state").asText()).as(after.toString()).isEqualTo("succeeded");
            assertThat(after.path("result").asInt()).isEqualTo(2);
            JsonNode again = run(url, GROWING);
            assertThat(again.path("state").asText()).as(again.toString()).isEqualTo("succeeded");
            assertThat(again.path("result").asInt()).isEqualTo(60);
        } finally {
            serve.destroy(); // SIGTERM
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(err)).doesNotContain("\tat ").contains("planvm serve: stopped");
    }

    @Test
    void a_file_size_limit_reached_mid_run_names_the_step_and_the_cause_and_the_run_resumes_once_lifted()
            throws Exception {
        Path plan = Files.writeString(dir.resolve("grow.json"), GROWING);
        Path store = dir.resolve("runs.db");
        List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -f 3072 && exec \"$@\"", "bash"));
        command.addAll(java("run", plan.toString(), "--store", store.toString()));
        Child limited = start(command);
        assertThat(limited.exitCode()).as(limited.err()).isEqualTo(1);
        assertThat(limited.err())
                .matches("(?s)" + Pattern.quote(plan + ": seq_no ") + "\\d+ \\((assign|jmp)\\): "
                        + Pattern.quote("the step could not be recorded, so the run stops here: " + store + ": ")
                        + ".*")
                .contains("the file-size limit (ulimit -f) of 3 MiB")
                .doesNotContain("the run ended but its end could not be recorded")
                .doesNotContain("\tat ");
        Matcher stored = Pattern.compile("run (\\w+) is stored").matcher(limited.err());
        assertThat(stored.find()).as(limited.err()).isTrue();

        Child resumed = start(java("resume", stored.group(1), "--store", store.toString()));
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out().strip()).isEqualTo("60");
    }

    private static List<String> java(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private record Child(int exitCode, String out, String err) {}

    private Child start(List<String> command) throws Exception {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process child = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!child.waitFor(120, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " hung for 120 s");
        }
        return new Child(
                child.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Whether this machine lets a process mount a tmpfs in a mount namespace of its own. */
    private boolean canMountTmpfs() throws Exception {
        Path probe = Files.createDirectories(dir.resolve("probe"));
        try {
            Process p = new ProcessBuilder(
                            "unshare",
                            "-rm",
                            "sh",
                            "-c",
                            "mount -t tmpfs -o size=1m planvm-probe \"$0\"",
                            probe.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException noUnshare) {
            return false;
        }
    }

    /** Writes {@code file} until the file system has no space left. */
    private static void fill(Path file) throws IOException {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            if (!String.valueOf(full.getMessage()).contains("No space left")) {
                throw full;
            }
        }
    }

    /** POSTs a plan, waits for its run and returns the answer (the run, or the error). */
    private static JsonNode run(String url, String plan) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url + "/v1/runs?wait=true"))
                                .timeout(Duration.ofSeconds(60))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"plan\": " + plan + "}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return MAPPER.readTree(response.body());
    }

    private static String url(Path err) throws Exception {
        Pattern listening = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = listening.matcher(Files.exists(err) ? Files.readString(err) : "");
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("planvm serve did not start: " + Files.readString(err));
    }
}
