package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm report} keeps {@code --secret} values out of the HTML page, whether it is written from the
 * run store or from a trace file: the secret flows into a real HTTP tool's params and comes back in its
 * answer (a hostile server echoes it), and the page holds no form of it — raw, JSON-escaped, HTML-escaped,
 * or any 8 characters of it — only its placeholder.
 */
class ReportSecretsTest {

    /** Quotes, markup characters and a slash, so its raw, JSON-escaped and HTML-escaped forms all differ. */
    static final String TOKEN = "tok\"<&>/9f8e7d6c5b4a3f2e1d";

    @TempDir
    Path dir;

    private HttpServer api;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private Path config;
    private Path plan;

    @BeforeEach
    void start() throws Exception {
        api = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        api.createContext("/lookup", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            received.add(body);
            byte[] answer = ("{\"echo\": " + body + ", \"note\": \"you sent " + json(TOKEN) + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        api.start();
        config = Files.writeString(
                dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "lookup", "method": "POST", "url": "http://127.0.0.1:%d/lookup",
                                "body": {"auth": "${auth}"},
                                "params": {"type": "object", "properties": {"auth": {"type": "string"}}, "required": ["auth"]}}]}
                """.formatted(api.getAddress().getPort()));
        plan = Files.writeString(dir.resolve("plan.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"header": "Bearer ${token}"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"auth": "${header}"},
                   "output_vars": "reply"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"note": "${reply.note}", "final_answer": "looked up"}}]""");
    }

    @AfterEach
    void stop() {
        api.stop(0);
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString()), args);
    }

    @Test
    void the_report_of_a_stored_run_and_of_its_trace_holds_no_form_of_a_secret() throws Exception {
        Path trace = dir.resolve("trace.json");
        CliRun run = planvm("run", plan.toString(), "--secret", "token=" + TOKEN, "--trace", trace.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(received).singleElement().asString().contains(json(TOKEN)); // the tool got the real value
        String id =
                planvm("runs").out().lines().skip(1).findFirst().orElseThrow().split("\\s+")[0];

        Path fromStore = dir.resolve("store.html");
        Path fromTrace = dir.resolve("trace.html");
        CliRun stored = planvm("report", id, "-o", fromStore.toString());
        CliRun traced = planvm("report", trace.toString(), "--plan", plan.toString(), "-o", fromTrace.toString());

        assertThat(stored.exitCode()).as(stored.err()).isZero();
        assertThat(traced.exitCode()).as(traced.err()).isZero();
        for (Path page : List.of(fromStore, fromTrace)) {
            String html = Files.readString(page);
            holdsNoFormOf(TOKEN, html, page.toString());
            assertThat(html)
                    .as("the values reached the page, redacted")
                    .contains("Bearer «secret:token»")
                    .contains("you sent «secret:token»");
        }
    }

    /** Fails when {@code text} holds the secret raw, JSON-escaped, HTML-escaped (either way) or any 8 characters of it. */
    static void holdsNoFormOf(String secret, String text, String where) {
        String escaped = json(secret);
        assertThat(text)
                .as(where)
                .doesNotContain(secret)
                .doesNotContain(escaped)
                .doesNotContain(html(secret))
                .doesNotContain(html(escaped));
        for (int i = 0; i + 8 <= secret.length(); i++) {
            String piece = secret.substring(i, i + 8);
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
