package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command speaks every dialect: {@code compile}, {@code validate}, {@code run}, {@code batch},
 * {@code test}, {@code resume}; and the run's clock ({@code --now}, {@code --tz}) is kept by
 * traces, cassettes and the store. Dates in the expectations are worked out by hand: Thursday
 * 2026-11-26 12:00 in Oslo is 11:00Z; next Thursday is 2026-12-03.
 */
class DialectCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Books next Thursday morning's flight, then says when the plan ran. */
    private static final String YAML = """
            # book a flight
            booking:
              flights:
                when: ${next(Thursday).morning}
            result: ${today} ${booking.ref}
            """;

    private static final String CASSETTE = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "flights", "params": {"when": ["2026-12-03T09:00:00+01:00"]}, "output": {"ref": "XK12"},
               "duration_ms": 1}]}""";

    private static final String NOW = "2026-11-26T12:00";

    @TempDir
    Path dir;

    private String write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return file.toString();
    }

    private CliRun withStore(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    @Test
    void compile_prints_the_stackvm_json_and_diagnostics_go_to_stderr() throws Exception {
        CliRun run = CliRun.of("compile", write("trip.yaml", YAML));
        assertThat(run.exitCode()).isZero();
        assertThat(run.err()).isEmpty();
        JsonNode plan = JSON.readTree(run.out());
        assertThat(plan)
                .as("the call, the unwrapping of a one-element answer, the result")
                .hasSize(3);
        assertThat(plan.get(0)
                        .path("parameters")
                        .path("tool_params")
                        .path("when")
                        .get(0)
                        .asText())
                .isEqualTo("${next('Thursday').morning}");
        assertThat(plan.get(2).path("execution_objective").asText()).isEqualTo("line 5: the result");
        assertThat(run.out()).as("indented").startsWith("[ {\n  \"seq_no\" : 0,\n");

        CliRun bad = CliRun.of("compile", write("bad.js", "x = ;\nreturn y;\n"));
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.out()).isEmpty();
        assertThat(bad.err())
                .contains("bad.js: line 1, column 5: ")
                .contains("bad.js: line 2, column 8: unknown name 'y'");
    }

    @Test
    void compile_reads_standard_input_in_the_dialect_named_and_refuses_an_unknown_one() throws Exception {
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream("return len('abc');".getBytes(StandardCharsets.UTF_8)));
            CliRun run = CliRun.of("compile", "-", "--dialect", "js");
            assertThat(run.exitCode()).isZero();
            assertThat(JSON.readTree(run.out())
                            .get(0)
                            .path("parameters")
                            .path("final_answer")
                            .asText())
                    .isEqualTo("${len('abc')}");
        } finally {
            System.setIn(stdin);
        }
        CliRun python = CliRun.of("compile", write("x.py", "print(1)"), "--dialect", "python");
        assertThat(python.exitCode()).isEqualTo(2);
        assertThat(python.err()).contains("'python' is not a plan dialect: write yaml, js, ppe, idyll or json");
    }

    @Test
    void run_replays_a_yaml_plan_on_the_clock_given_and_the_trace_keeps_the_clock_and_the_lines() throws Exception {
        String trace = dir.resolve("trace.json").toString();
        CliRun run = CliRun.of(
                "run",
                write("trip.yaml", YAML),
                "--replay",
                write("trip.cassette.json", CASSETTE),
                "--now",
                NOW,
                "--tz",
                "Europe/Oslo",
                "--trace",
                trace,
                "--no-store");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("2026-11-26 XK12\n");
        JsonNode document = JSON.readTree(Path.of(trace).toFile());
        assertThat(document.get("clock")).hasToString("{\"now\":\"2026-11-26T11:00:00Z\",\"tz\":\"Europe/Oslo\"}");
        assertThat(document.path("steps").get(0).path("line").asInt()).isEqualTo(3);
        assertThat(document.path("steps").get(1).path("line").asInt()).isEqualTo(2);
        assertThat(document.path("steps").get(2).path("line").asInt()).isEqualTo(5);
        assertThat(document.path("plan").path("source").asText()).endsWith("trip.yaml");
    }

    @Test
    void a_runtime_error_of_a_dialect_plan_names_its_source_line() throws Exception {
        CliRun run = CliRun.of(
                "run",
                write("when.js", "// when?\nstart = today;\nreturn start.at('3:00xm');\n"),
                "--now",
                NOW,
                "--tz",
                "UTC",
                "--no-store");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .contains("when.js: line 3 (seq_no 1, assign): ${start.at('3:00xm')}: '3:00xm' is not a time of"
                        + " day: write 3:00pm, 15:00 or 15:00:30");
    }

    @Test
    void bad_clock_options_are_usage_errors() throws Exception {
        String plan = write("p.yaml", "result: ${today}\n");
        CliRun now = CliRun.of("run", plan, "--now", "next tuesday", "--no-store");
        assertThat(now.exitCode()).isEqualTo(2);
        assertThat(now.err()).contains("--now: 'next tuesday' is not an instant");
        CliRun tz = CliRun.of("run", plan, "--tz", "Europe/Olso", "--no-store");
        assertThat(tz.exitCode()).isEqualTo(2);
        assertThat(tz.err()).contains("--tz: 'Europe/Olso' is not a time zone");
    }

    @Test
    void a_recorded_cassette_keeps_the_clock_so_test_replays_the_same_dates_on_another_day() throws Exception {
        Path plans = dir.resolve("plans");
        Files.createDirectories(plans);
        String plan = write("plans/dates.js", "return [today, next(Friday).at('5pm')];\n");
        String cassette = plans.resolve("dates.cassette.json").toString();
        CliRun recorded =
                CliRun.of("run", plan, "--record", cassette, "--now", NOW, "--tz", "Europe/Oslo", "--no-store");
        assertThat(recorded.out()).isEqualTo("[\"2026-11-26\",\"2026-11-27T17:00:00+01:00\"]\n");
        assertThat(JSON.readTree(Path.of(cassette).toFile()).get("clock"))
                .hasToString("{\"now\":\"2026-11-26T11:00:00Z\",\"tz\":\"Europe/Oslo\"}");
        write(
                "plans/dates.expected.json",
                "{\"status\": \"succeeded\", \"final_answer\": [\"2026-11-26\"," + " \"2026-11-27T17:00:00+01:00\"]}");

        CliRun test = CliRun.of("test", plans.toString());
        assertThat(test.out()).contains("PASS").contains("1 passed, 0 failed");
        assertThat(test.exitCode()).isZero();
        CliRun otherDay = CliRun.of("test", plans.toString(), "--now", "2026-12-01T08:00:00Z");
        assertThat(otherDay.exitCode())
                .as("--now wins over the cassette's clock")
                .isEqualTo(1);
        assertThat(otherDay.out()).contains("FAIL");
    }

    @Test
    void validate_and_batch_take_every_dialect_from_a_directory() throws Exception {
        write("mixed/a.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        write("mixed/b.yaml", "result: ${len('ab')}\n");
        write("mixed/c.yml", "result: ${user}\n");
        write("mixed/d.js", "return 4;\n");
        write("mixed/d.expected.json", "{\"final_answer\": 4}");
        write("mixed/d.cassette.json", "{\"format\": \"planvm-cassette/1\", \"interactions\": []}");
        String mixed = dir.resolve("mixed").toString();

        CliRun unknownInput = CliRun.of("validate", mixed);
        assertThat(unknownInput.exitCode()).isEqualTo(2);
        assertThat(unknownInput.out()).contains("c.yml: line 1, column 11: unknown name 'user'");
        CliRun validate = CliRun.of("validate", mixed, "--input", "user");
        assertThat(validate.exitCode()).isZero();
        assertThat(validate.out())
                .contains("a.json: ok")
                .contains("b.yaml: ok")
                .contains("c.yml: ok")
                .contains("d.js: ok")
                .doesNotContain("expected")
                .doesNotContain("cassette");

        CliRun batch = CliRun.of("batch", mixed, "--var", "user=ada");
        assertThat(batch.exitCode()).isZero();
        assertThat(batch.out().lines()).hasSize(4).allMatch(line -> line.contains("\"status\":\"succeeded\""));
        assertThat(batch.out()).contains("\"final_answer\":\"ada\"");
    }

    @Test
    void a_resumed_dialect_plan_resumes_with_the_stored_clock() throws Exception {
        String plan = write("trip.yaml", YAML);
        String empty = write("empty.cassette.json", "{\"format\": \"planvm-cassette/1\", \"interactions\": []}");
        CliRun failed = withStore("run", plan, "--replay", empty, "--now", NOW, "--tz", "Europe/Oslo");
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err()).contains("trip.yaml: line 3 (seq_no 0, calling)");
        Matcher id = Pattern.compile("planvm resume (\\w+)").matcher(failed.err());
        assertThat(id.find()).isTrue();

        CliRun resumed = withStore("resume", id.group(1), "--replay", write("trip.cassette.json", CASSETTE));
        assertThat(resumed.err()).isEmpty();
        assertThat(resumed.exitCode()).isZero();
        assertThat(resumed.out())
                .as("today is the stored run's, not the system's")
                .isEqualTo("2026-11-26 XK12\n");

        CliRun show = withStore("show", id.group(1));
        JsonNode shown = JSON.readTree(show.out());
        assertThat(shown.path("steps").get(0).path("line").asInt()).isEqualTo(3);
        assertThat(shown.get("clock")).hasToString("{\"now\":\"2026-11-26T11:00:00Z\",\"tz\":\"Europe/Oslo\"}");
    }
}
