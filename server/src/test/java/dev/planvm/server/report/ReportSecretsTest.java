package dev.planvm.server.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report a server serves ({@code GET /runs/{id}}) holds no form of a secret the server knows
 * ({@code PlanVm.builder().secrets(...)}, what {@code planvm serve --secret} gives): a client sends it as an
 * input, it flows into a tool's params and back out in its answer, then into the params of a call that
 * waits for approval. Neither the waiting run's page nor the finished run's page, nor the run's JSON, holds
 * it raw, JSON-escaped, HTML-escaped or any 8 characters of it.
 */
class ReportSecretsTest {

    /** Quotes, markup characters and a slash, so its raw, JSON-escaped and HTML-escaped forms all differ. */
    private static final String TOKEN = "tok\"<&>/9f8e7d6c5b4a3f2e1d";

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"auth": "Bearer ${token}"},
               "output_vars": "reply"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "${reply.auth}"},
               "output_vars": "sent"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${sent}"}}]""";

    @TempDir
    Path dir;

    @Test
    void the_served_report_of_a_waiting_and_of_a_finished_run_holds_no_form_of_a_secret() throws Exception {
        try (ServerFixture server = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.DEFAULT,
                builder -> builder.secrets(Map.of("token", TOKEN)))) {
            Answer waiting = server.post(
                    "/v1/runs?wait=true",
                    ServerFixture.runBody(
                            PLAN, "\"inputs\": {\"token\": \"" + json(TOKEN) + "\"}, \"approve_tools\": [\"send_*\"]"));
            assertThat(waiting.json().path("state").asText())
                    .as(waiting.response().body())
                    .isEqualTo("waiting");
            assertThat(server.echoes).as("the tool ran with the secret").hasValue(1);
            String id = waiting.json().path("id").asText();

            String pending = page(server, id);
            holdsNoFormOf(pending, "the waiting run's report");
            assertThat(pending).contains("Bearer «secret:token»");

            Answer done = server.post(
                    "/v1/runs/" + id + "/approve?wait=true",
                    "{\"call_id\": \"" + waiting.json().at("/pending/call_id").asText() + "\", \"approved\": true}");
            assertThat(done.json().path("state").asText())
                    .as(done.response().body())
                    .isEqualTo("succeeded");
            assertThat(server.mails).hasValue(1);
            String finished = page(server, id);
            holdsNoFormOf(finished, "the finished run's report");
            assertThat(finished).contains("sent to Bearer «secret:token»");
            holdsNoFormOf(server.get("/v1/runs/" + id).response().body(), "GET /v1/runs/{id}");
            holdsNoFormOf(done.response().body(), "the approve answer");
        }
    }

    private static String page(ServerFixture server, String id) throws Exception {
        Answer report = server.get("/runs/" + id);
        assertThat(report.status()).isEqualTo(200);
        assertThat(report.header("Content-Type")).startsWith("text/html");
        return report.response().body();
    }

    private static void holdsNoFormOf(String text, String where) {
        String escaped = json(TOKEN);
        assertThat(text)
                .as(where)
                .doesNotContain(TOKEN)
                .doesNotContain(escaped)
                .doesNotContain(html(TOKEN))
                .doesNotContain(html(escaped));
        for (int i = 0; i + 8 <= TOKEN.length(); i++) {
            String piece = TOKEN.substring(i, i + 8);
            if (piece.chars().allMatch(Character::isLetterOrDigit)) {
                assertThat(text).as("%s holds '%s'", where, piece).doesNotContain(piece);
            }
        }
    }

    private static String json(String text) {
        return new String(JsonStringEncoder.getInstance().quoteAsString(text));
    }

    private static String html(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
