package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.llm.testing.FakeOpenAiServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secrets — the API key and --secret variables — never reach the trace, the store, cassettes or logs. */
class SecretsTest {

    private static final String TOKEN = "tok-9f8e7d6c5b4a";
    private static final String API_KEY = "sk-test-0123456789abcdef";

    @TempDir
    Path dir;

    private FakeOpenAiServer server;

    @BeforeEach
    void start() {
        server = FakeOpenAiServer.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Map<String, String> environment() {
        return Map.of(
                "OPENAI_BASE_URL",
                server.baseUrl(),
                "OPENAI_API_KEY",
                API_KEY,
                "PLANVM_LLM_TIMEOUT_SECONDS",
                "2",
                "PLANVM_STORE",
                dir.resolve("runs.db").toString());
    }

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"header": "Bearer ${token}"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm_generate",
               "tool_params": {"prompt": "Call the API with ${header}"}, "output_vars": "reply"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${len(reply)}", "check": "${json(header)}"}}]""";

    @Test
    void secrets_are_kept_out_of_trace_cassette_store_and_stderr() throws Exception {
        // A hostile server echoes both the token and the API key back.
        server.reply("I used " + TOKEN + " and your key " + API_KEY);
        Path plan = Files.writeString(dir.resolve("plan.json"), PLAN);
        Path trace = dir.resolve("trace.json");
        Path cassette = dir.resolve("run.cassette.json");
        CliRun run = CliRun.withEnvironment(
                environment(),
                "run",
                plan.toString(),
                "--secret",
                "token=" + TOKEN,
                "--trace",
                trace.toString(),
                "--record",
                cassette.toString(),
                "--verbose");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1); // json(header) fails: the message would quote the token
        assertThat(server.requests().get(0).toString()).contains(TOKEN); // the tool itself got the real value
        for (Path file : new Path[] {trace, cassette}) {
            String text = Files.readString(file);
            assertThat(text)
                    .as(file.toString())
                    .doesNotContain(TOKEN)
                    .doesNotContain(API_KEY)
                    .contains("«secret:token»");
        }
        assertThat(Files.readString(cassette)).contains("«secret:OPENAI_API_KEY»");
        assertThat(run.err()).doesNotContain(TOKEN).doesNotContain(API_KEY);
        assertThat(run.out()).doesNotContain(TOKEN);
        CliRun shown = CliRun.withEnvironment(environment(), "show", lastRun());
        assertThat(shown.out()).contains("«secret:token»").doesNotContain(TOKEN).doesNotContain(API_KEY);
        for (Path file : Files.list(dir)
                .filter(p -> p.getFileName().toString().startsWith("runs.db"))
                .toList()) {
            String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            assertThat(bytes).as(file.toString()).doesNotContain(TOKEN).doesNotContain(API_KEY);
        }
    }

    @Test
    void a_cassette_recorded_with_a_secret_replays_with_the_same_secret() throws Exception {
        server.reply("fine");
        Path plan = Files.writeString(
                dir.resolve("plan.json"), PLAN.replace("\"check\": \"${json(header)}\"", "\"check\": 1"));
        Path cassette = dir.resolve("run.cassette.json");
        CliRun recorded = CliRun.withEnvironment(
                environment(), "run", plan.toString(), "--secret", "token=" + TOKEN, "--record", cassette.toString());
        assertThat(recorded.exitCode()).as(recorded.err()).isZero();
        server.close();
        CliRun replayed = CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()),
                "run",
                plan.toString(),
                "--secret",
                "token=" + TOKEN,
                "--replay",
                cassette.toString());
        assertThat(replayed.exitCode()).as(replayed.err()).isZero();
        assertThat(replayed.out()).isEqualTo(recorded.out()).isEqualTo("4\n");
    }

    @Test
    void a_secret_too_short_to_redact_or_missing_from_the_environment_is_a_usage_error() throws Exception {
        Path plan = Files.writeString(
                dir.resolve("plan.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun shortOne = CliRun.of("run", plan.toString(), "--secret", "pin=123");
        assertThat(shortOne.exitCode()).isEqualTo(2);
        assertThat(shortOne.err()).contains("--secret pin: a secret needs at least 8 characters");
        CliRun missing = CliRun.of("run", plan.toString(), "--secret", "NOT_IN_ENV");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("no environment variable NOT_IN_ENV");
    }

    private String lastRun() {
        CliRun runs = CliRun.withEnvironment(environment(), "runs");
        return runs.out().lines().skip(1).findFirst().orElseThrow().split("\\s+")[0];
    }
}
