package dev.planvm.integrations.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.integrations.testing.LoopbackHttp;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.tools.config.ToolsConfigException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Declarative HTTP tools against a real HTTP server on 127.0.0.1. */
class HttpToolTest {

    static final String TOKEN = "city-token-5d1e";

    @TempDir
    Path dir;

    LoopbackHttp server;
    LoadedTools loaded;

    @BeforeEach
    void startServer() throws Exception {
        server = new LoopbackHttp();
    }

    @AfterEach
    void stop() {
        if (loaded != null) {
            loaded.close();
        }
        server.close();
    }

    private Tool load(String toolJson) throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putArray("httpTools").add(Configs.JSON.readTree(toolJson));
        loaded = ToolsConfig.load(
                Configs.write(dir, config), Map.of(), Map.of("CITY_TOKEN", TOKEN), Configs.providers());
        return loaded.tools().get(0);
    }

    private static JsonNode call(Tool tool, String params) throws Exception {
        return tool.invoke(Configs.JSON.readTree(params), CallContext.of(0));
    }

    @Test
    void fills_the_url_headers_and_output_pointer_from_the_params_and_secrets() throws Exception {
        server.on("/cities/", LoopbackHttp.json(200, "{\"data\": {\"population\": 42}, \"meta\": 1}"));
        Tool lookup = load("""
                {"name": "lookup", "method": "GET", "url": "%s",
                 "headers": {"Authorization": "Bearer ${secret:CITY_TOKEN}", "X-Lang": "${lang}"}, "output": "/data",
                 "params": {"type": "object", "properties": {"city": {"type": "string"}, "lang": {"type": "string"}}}}""".formatted(server.url("/cities/${city}?lang=${lang}")));
        assertThat(call(lookup, "{\"city\": \"New York/1\", \"lang\": \"en gb\"}"))
                .isEqualTo(Configs.JSON.readTree("{\"population\": 42}"));
        assertThat(server.last().uri()).isEqualTo("/cities/New%20York%2F1?lang=en%20gb");
        assertThat(server.last().header("Authorization")).isEqualTo("Bearer " + TOKEN);
        assertThat(server.last().header("X-Lang")).isEqualTo("en gb");
        assertThat(lookup.hasSideEffects()).isFalse();
        assertThat(lookup.isDestructive()).isFalse();
        assertThat(lookup.hosts())
                .containsExactly(java.net.URI.create(server.url("/")).getAuthority());
        assertThat(lookup.callTimeout()).as("no timeout_s configured").isEmpty();
        assertThat(lookup.defaultCallTimeout()).contains(Duration.ofSeconds(30));
        assertThat(loaded.secretsUsed()).containsEntry("CITY_TOKEN", TOKEN);
    }

    @Test
    void a_path_param_of_dots_is_sent_percent_encoded_never_as_a_dot_segment() throws Exception {
        server.on("/cities/", LoopbackHttp.json(200, "{\"ok\": true}"));
        Tool lookup = load("""
                {"name": "lookup", "url": "%s",
                 "params": {"type": "object", "properties": {"city": {"type": "string"}}}}""".formatted(server.url("/cities/${city}/info")));
        Map<String, String> sent = Map.of(
                "..", "/cities/%2E%2E/info",
                ".", "/cities/%2E/info",
                "...", "/cities/%2E%2E%2E/info",
                "a.b", "/cities/a.b/info",
                "../admin", "/cities/..%2Fadmin/info");
        for (Map.Entry<String, String> city : sent.entrySet()) {
            call(
                    lookup,
                    Configs.JSON.createObjectNode().put("city", city.getKey()).toString());
            assertThat(server.last().uri()).as(city.getKey()).isEqualTo(city.getValue());
        }
    }

    @Test
    void a_body_string_that_is_one_reference_keeps_the_params_json_type_and_an_absent_one_is_dropped()
            throws Exception {
        server.on("/notes", LoopbackHttp.json(201, "{\"id\": 7}"));
        Tool post = load("""
                {"name": "note", "method": "POST", "url": "%s", "retries": 0,
                 "body": {"count": "${n}", "tags": "${tags}", "text": "hello ${who}", "maybe": "${opt}", "fixed": [1, "${n}"]},
                 "params": {"type": "object", "properties": {"n": {"type": "integer"}, "tags": {"type": "array"},
                            "who": {"type": "string"}, "opt": {}}, "required": ["n", "who"]}}""".formatted(server.url("/notes")));
        assertThat(call(post, "{\"n\": 5, \"tags\": [\"a\"], \"who\": \"Bo\"}"))
                .isEqualTo(Configs.JSON.readTree("{\"id\": 7}"));
        assertThat(Configs.JSON.readTree(server.last().body()))
                .isEqualTo(Configs.JSON.readTree(
                        "{\"count\": 5, \"tags\": [\"a\"], \"text\": \"hello Bo\", \"fixed\": [1, 5]}"));
        assertThat(server.last().header("Content-Type")).isEqualTo("application/json");
        assertThat(post.hasSideEffects()).as("POST has side effects by default").isTrue();
        assertThat(post.isDestructive()).as("a POST is not a DELETE").isFalse();
        assertThat(post.maxAttempts()).hasValue(1);
    }

    @Test
    void the_whole_answer_is_the_output_json_when_it_parses_else_text() throws Exception {
        server.on("/text", (exchange, request) -> LoopbackHttp.send(exchange, 200, "text/plain", "just words"));
        Tool text = load("{\"name\": \"t\", \"url\": \"%s\"}".formatted(server.url("/text")));
        assertThat(call(text, "{}").asText()).isEqualTo("just words");
    }

    @Test
    void statuses_408_429_and_5xx_are_retriable_with_retry_after_and_other_4xx_and_redirects_are_not()
            throws Exception {
        server.on("/busy", (exchange, request) -> {
            exchange.getResponseHeaders().set("Retry-After", "2");
            LoopbackHttp.send(exchange, 503, "text/plain", "overloaded");
        });
        server.on("/slow-down", LoopbackHttp.json(429, "{}"));
        server.on("/missing", LoopbackHttp.json(404, "{\"error\": \"no such city\"}"));
        server.on("/moved", (exchange, request) -> {
            exchange.getResponseHeaders().set("Location", "http://elsewhere.invalid/");
            LoopbackHttp.send(exchange, 301, "text/plain", "");
        });
        Tool tool = load("{\"name\": \"s\", \"url\": \"%s\"}".formatted(server.url("/${path}")));

        ToolException busy = catchThrowableOfType(ToolException.class, () -> call(tool, "{\"path\": \"busy\"}"));
        assertThat(busy.retriable()).isTrue();
        assertThat(busy.retryAfter()).contains(Duration.ofSeconds(2));
        assertThat(busy.getMessage()).contains("GET " + server.url("/busy")).contains("answered HTTP 503: overloaded");
        assertThat(busy.overloaded())
                .as("503: the tool's concurrency limit shrinks")
                .isTrue();
        ToolException slowDown =
                catchThrowableOfType(ToolException.class, () -> call(tool, "{\"path\": \"slow-down\"}"));
        assertThat(slowDown.retriable()).isTrue();
        assertThat(slowDown.overloaded())
                .as("429 without Retry-After: overloaded all the same")
                .isTrue();
        ToolException missing = catchThrowableOfType(ToolException.class, () -> call(tool, "{\"path\": \"missing\"}"));
        assertThat(missing.retriable()).isFalse();
        assertThat(missing.overloaded()).isFalse();
        assertThat(missing.getMessage()).contains("HTTP 404").contains("no such city");
        ToolException moved = catchThrowableOfType(ToolException.class, () -> call(tool, "{\"path\": \"moved\"}"));
        assertThat(moved.retriable()).isFalse();
        assertThat(moved.getMessage()).contains("redirects are not followed");
    }

    @Test
    void a_server_that_trickles_its_answer_times_out_on_the_whole_body() throws Exception {
        server.on("/trickle", (exchange, request) -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 100; i++) {
                    out.write('[');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Tool tool = load("{\"name\": \"t\", \"url\": \"%s\", \"timeout_s\": 0.5}".formatted(server.url("/trickle")));
        ToolException e = catchThrowableOfType(ToolException.class, () -> call(tool, "{}"));
        assertThat(e.retriable()).isTrue();
        assertThat(e.getMessage()).contains("gave no complete answer within 0.5 s");
    }

    @Test
    void an_answer_larger_than_the_bound_is_refused() throws Exception {
        String big =
                "\"" + "x".repeat((int) (dev.planvm.integrations.internal.HttpExchange.DEFAULT_MAX_BODY + 10)) + "\"";
        server.on("/big", LoopbackHttp.json(200, big));
        Tool tool = load("{\"name\": \"b\", \"url\": \"%s\"}".formatted(server.url("/big")));
        ToolException e = catchThrowableOfType(ToolException.class, () -> call(tool, "{}"));
        assertThat(e.getMessage()).contains("larger than 8 MiB");
        assertThat(e.retriable()).isFalse();
    }

    @Test
    void configuration_mistakes_are_all_reported_at_once_with_pointers() throws Exception {
        Path file = dir.resolve("planvm.json");
        Files.writeString(file, """
                {"httpTools": [
                  {"name": "a", "url": "http://127.0.0.1:1/${ci ty}"},
                  {"name": "b", "url": "http://127.0.0.1:1/?k=${secret:KEY}", "side_efects": true},
                  {"name": "c", "url": "http://127.0.0.1:1/${cty}", "headers": {"Host": "x"},
                   "params": {"type": "object", "properties": {"city": {"type": "string"}}}},
                  {"name": "d", "url": "ftp://127.0.0.1/", "method": "FETCH"}
                ]}""");
        ToolsConfigException e = catchThrowableOfType(
                ToolsConfigException.class, () -> ToolsConfig.load(file, Map.of(), Map.of(), Configs.providers()));
        assertThat(e.lines())
                .anySatisfy(line ->
                        assertThat(line).contains("/httpTools/1/side_efects").contains("did you mean 'side_effects'?"));
        assertThat(e.lines()).anySatisfy(line -> assertThat(line).contains("/httpTools/3/method"));
        // Semantic checks run only once the sections fit their schemas; fix the schema errors and see the rest.
        Files.writeString(
                file,
                Files.readString(file).replace(", \"side_efects\": true", "").replace(", \"method\": \"FETCH\"", ""));
        ToolsConfigException semantic = catchThrowableOfType(
                ToolsConfigException.class, () -> ToolsConfig.load(file, Map.of(), Map.of(), Configs.providers()));
        assertThat(semantic.lines())
                .hasSize(5)
                .anySatisfy(line -> assertThat(line).contains("at /httpTools/0/url: '${ci ty}' does not name a param"))
                .anySatisfy(line -> assertThat(line)
                        .contains("at /httpTools/1/url: secrets (${secret:KEY}) may only be used in headers"))
                .anySatisfy(line -> assertThat(line).contains("at /httpTools/2/headers/Host"))
                .anySatisfy(line -> assertThat(line)
                        .contains("at /httpTools/2/params: the request reads ${cty}")
                        .contains("did you mean 'city'?"))
                .anySatisfy(line ->
                        assertThat(line).contains("at /httpTools/3/url: the URL must start with http:// or https://"));
    }

    @Test
    void a_tool_whose_secret_is_not_set_is_unavailable_and_says_which() throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putArray("httpTools")
                .add(
                        Configs.JSON.readTree(
                                "{\"name\": \"x\", \"url\": \"http://127.0.0.1:1/\", \"headers\": {\"Authorization\": \"${secret:NOT_SET}\"}}"));
        loaded = ToolsConfig.load(Configs.write(dir, config), Map.of(), Map.of(), Configs.providers());
        assertThat(loaded.tools()).isEmpty();
        assertThat(loaded.unavailable().get("x")).contains("the secret NOT_SET is not set");
    }

    @Test
    void in_a_plan_retries_follow_the_tool_and_the_secret_stays_out_of_trace_and_cassette() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        server.on("/echo-auth", (exchange, request) -> {
            if (calls.incrementAndGet() < 3) {
                LoopbackHttp.send(exchange, 502, "text/plain", "bad gateway");
            } else {
                LoopbackHttp.send(
                        exchange, 200, "application/json", "{\"seen\": \"" + request.header("Authorization") + "\"}");
            }
        });
        Tool tool = load("""
                {"name": "whoami", "url": "%s", "retries": 2, "headers": {"Authorization": "Bearer ${secret:CITY_TOKEN}"}}""".formatted(server.url("/echo-auth")));
        PlanVm vm = PlanVm.builder()
                .tools(List.of(tool))
                .secrets(loaded.secretsUsed())
                .retrySleeper(wait -> {})
                .build();
        RunMode.Record rec = RunMode.record();
        RunResult result = vm.run(vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "whoami", "params": {}, "output_vars": "final_answer"}}]""", "plan").planOrThrow(), Map.of(), rec);
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(calls.get()).isEqualTo(3);
        assertThat(tool.maxAttempts()).hasValue(3);
        Path cassette = dir.resolve("cassette.json");
        rec.recording().cassette().write(cassette);
        assertThat(result.trace().toString()).doesNotContain(TOKEN).contains("«secret:CITY_TOKEN»");
        assertThat(Files.readString(cassette)).doesNotContain(TOKEN).contains("«secret:CITY_TOKEN»");
    }
}
