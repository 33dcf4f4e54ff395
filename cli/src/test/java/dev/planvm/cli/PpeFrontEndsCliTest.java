package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every front end that runs a PPE script offers the scripts it imports as plan tools, with no
 * --plan-tools flag: resume and rerun of a stored parent run, and serve's plan-tool directory
 * (issue 27).
 */
class PpeFrontEndsCliTest {

    private static final String NOT_YET = "---\ninput: [content]\n---\n- $abort: \"not yet\"\n";
    private static final String SHOUT = "---\ninput: [content]\n---\n- $ret: \"?=upper(content) + '!'\"\n";

    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    /** A parent run whose child (the imported script) aborts; the child is then fixed. Its run id. */
    private String failedParentRun() throws Exception {
        write("lib/shout.ai.yaml", NOT_YET);
        Path parent = write("parent.ai.yaml", "---\nimport: [lib/shout.ai.yaml]\n---\n- $echo: hi\n- -> shout\n");
        CliRun failed = planvm("run", parent.toString());
        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err()).contains("not yet").contains("planvm resume ");
        write("lib/shout.ai.yaml", SHOUT);
        return failed.err().replaceAll("(?s).*planvm resume (\\w+).*", "$1").trim();
    }

    @Test
    void resume_of_a_stored_ppe_parent_run_runs_its_imports_as_they_were_when_it_started() throws Exception {
        String id = failedParentRun(); // the import is fixed after the run failed
        CliRun resumed = planvm("resume", id);
        assertThat(resumed.exitCode())
                .as("a resumed run goes on with the plan tools it started with: " + resumed.err())
                .isEqualTo(1);
        assertThat(resumed.err()).contains("not yet");
    }

    @Test
    void rerun_of_a_stored_ppe_parent_run_offers_its_imports_as_plan_tools_again() throws Exception {
        String id = failedParentRun();
        CliRun rerun = planvm("rerun", id, "--from", "1");
        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.out()).isEqualTo("HI!\n");
        assertThat(rerun.err()).contains("rerun of " + id + " from seq_no 1");
    }

    @Test
    void approve_of_a_stored_ppe_parent_run_waiting_to_call_its_import_offers_it_as_a_plan_tool() throws Exception {
        write("lib/shout.ai.yaml", SHOUT);
        Path parent = write("parent.ai.yaml", "---\nimport: [lib/shout.ai.yaml]\n---\n- $echo: hi\n- -> shout\n");
        CliRun waiting = planvm("run", parent.toString(), "--approve-tools", "shout");
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for approval.*", "$1")
                .trim();
        CliRun approved = planvm("approve", id);
        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(approved.out()).isEqualTo("HI!\n");
    }

    @Test
    void resume_of_a_run_whose_script_is_gone_needs_it_not_the_run_kept_its_plan_tools() throws Exception {
        String id = failedParentRun();
        Files.delete(dir.resolve("parent.ai.yaml"));
        Files.delete(dir.resolve("lib/shout.ai.yaml"));
        CliRun resumed = planvm("resume", id);
        assertThat(resumed.exitCode()).as(resumed.err()).isEqualTo(1);
        assertThat(resumed.err())
                .contains("plan tool 'shout' failed")
                .contains("not yet")
                .doesNotContain("Exception");
    }

    @Test
    void serve_offers_what_the_scripts_of_its_plan_tool_directory_import() throws Exception {
        write("tools/lib/shout.ai.yaml", SHOUT);
        write(
                "tools/exclaim.ai.yaml",
                "---\ninput:\n  - who: {required: true, type: string}\nimport: [lib/shout.ai.yaml]\n---\n"
                        + "- $echo: \"hello {{who}}\"\n- -> shout\n");
        Path err = dir.resolve("serve.err");
        Process serve = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "serve",
                        "--port",
                        "0",
                        "--store",
                        dir.resolve("runs.db").toString(),
                        "--config",
                        Files.writeString(dir.resolve("planvm.json"), "{}").toString(),
                        "--plan-tools",
                        dir.resolve("tools").toString())
                .redirectError(err.toFile())
                .redirectOutput(dir.resolve("serve.out").toFile())
                .start();
        try {
            String url = url(err);
            HttpResponse<String> run = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(url + "/v1/runs?wait=true"))
                                    .timeout(Duration.ofSeconds(60))
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"plan\": [{\"seq_no\": 0, \"type\":"
                                            + " \"calling\", \"parameters\": {\"tool_name\": \"exclaim\","
                                            + " \"tool_params\": {\"who\": \"Ann\"}, \"output_vars\":"
                                            + " [\"final_answer\"]}}]}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
            JsonNode outcome = new ObjectMapper().readTree(run.body());
            assertThat(outcome.path("result").asText()).as(run.body()).isEqualTo("HELLO ANN!");
        } finally {
            serve.destroy(); // SIGTERM
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
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
