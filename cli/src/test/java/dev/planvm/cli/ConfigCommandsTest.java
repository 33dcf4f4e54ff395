package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tools configuration through the commands: an HTTP tool a plan calls, its listing, and configuration errors. */
class ConfigCommandsTest {

    @TempDir
    Path dir;

    private HttpServer server;
    private final AtomicReference<String> authorization = new AtomicReference<>();
    private final AtomicInteger population = new AtomicInteger(709000);
    private final AtomicInteger hits = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/cities/", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            hits.incrementAndGet();
            String city = exchange.getRequestURI().getPath().substring("/cities/".length());
            byte[] body = ("{\"data\": {\"city\": \"" + city + "\", \"population\": " + population.get() + "}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private Path config() throws IOException {
        return Files.writeString(
                dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "lookup", "description": "Looks a city up", "method": "GET",
                  "url": "http://127.0.0.1:%d/cities/${city}",
                  "headers": {"Authorization": "Bearer ${secret:CITY_TOKEN}"}, "output": "/data",
                  "params": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}
                """.formatted(server.getAddress().getPort()));
    }

    @Test
    void a_plan_calls_a_configured_http_tool_and_its_secret_header_stays_out_of_the_trace() throws Exception {
        Path plan = Files.writeString(dir.resolve("p.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"city": "Oslo"},
                  "output_vars": ["population"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${population}"}}]""");
        Path trace = dir.resolve("trace.json");
        CliRun run = CliRun.withEnvironment(
                Map.of("CITY_TOKEN", "city-token-0123456789"),
                "run",
                plan.toString(),
                "--config",
                config().toString(),
                "--no-store",
                "--trace",
                trace.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("709000\n");
        assertThat(authorization.get()).isEqualTo("Bearer city-token-0123456789");
        assertThat(Files.readString(trace)).contains("\"city\" : \"Oslo\"").doesNotContain("city-token-0123456789");
    }

    @Test
    void tools_lists_the_configured_tools_with_their_schemas() throws Exception {
        CliRun tools = CliRun.withEnvironment(
                Map.of("PLANVM_CONFIG", config().toString(), "CITY_TOKEN", "city-token-0123456789"),
                "tools",
                "--format",
                "json");
        assertThat(tools.exitCode()).as(tools.err()).isZero();
        assertThat(tools.out())
                .contains("\"name\" : \"lookup\"")
                .contains("\"description\" : \"Looks a city up\"")
                .contains("\"required\" : [ \"city\" ]");
    }

    @Test
    void every_problem_of_a_configuration_is_listed_with_its_pointer_and_exit_2() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), """
                {"httpTool": [], "mcpServers": {"fs": {"comand": "node"}}}""");
        for (String command : new String[] {"run", "validate", "tools", "test"}) {
            CliRun run = command.equals("tools")
                    ? CliRun.of("tools", "--config", bad.toString())
                    : CliRun.of(
                            command,
                            Files.writeString(dir.resolve("p.json"), "[]").toString(),
                            "--config",
                            bad.toString());
            assertThat(run.exitCode()).as(command).isEqualTo(2);
            assertThat(run.err())
                    .as(command)
                    .contains("at /httpTool:")
                    .contains("did you mean 'httpTools'?")
                    .contains("at /mcpServers/fs")
                    .contains("comand");
        }
    }

    @Test
    void a_partial_replay_calls_the_live_tool_for_real_and_answers_the_rest_from_the_cassette() throws Exception {
        Path plan = Files.writeString(dir.resolve("p.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"city": "Oslo"},
                  "output_vars": ["population"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${population}"}}]""");
        Map<String, String> env = Map.of("CITY_TOKEN", "city-token-0123456789", "PLANVM_CONFIG", config().toString());
        Path cassette = dir.resolve("p.cassette.json");
        CliRun recorded =
                CliRun.withEnvironment(env, "run", plan.toString(), "--no-store", "--record", cassette.toString());
        assertThat(recorded.exitCode()).as(recorded.err()).isZero();
        population.set(710000);
        hits.set(0);

        CliRun replayed =
                CliRun.withEnvironment(env, "run", plan.toString(), "--no-store", "--replay", cassette.toString());
        assertThat(replayed.out()).isEqualTo("709000\n");
        assertThat(hits).hasValue(0);

        CliRun partial = CliRun.withEnvironment(
                env, "run", plan.toString(), "--no-store", "--replay", cassette.toString(), "--live", "lookup");
        assertThat(partial.exitCode()).as(partial.err()).isZero();
        assertThat(partial.out()).isEqualTo("710000\n");
        assertThat(hits).hasValue(1);

        CliRun updated = CliRun.withEnvironment(env, "test", plan.toString(), "--live", "lookup", "--update");
        assertThat(updated.exitCode()).as(updated.out() + updated.err()).isZero();
        assertThat(Files.readString(dir.resolve("p.expected.json"))).contains("710000");
        CliRun tested = CliRun.withEnvironment(env, "test", plan.toString(), "--live", "lookup");
        assertThat(tested.exitCode()).as(tested.out() + tested.err()).isZero();
        assertThat(hits).hasValue(3);
        population.set(711000);
        CliRun changed = CliRun.withEnvironment(env, "test", plan.toString(), "--live", "lookup");
        assertThat(changed.exitCode()).as(changed.out() + changed.err()).isEqualTo(1);

        CliRun misuse = CliRun.withEnvironment(env, "run", plan.toString(), "--live", "lookup");
        assertThat(misuse.exitCode()).isEqualTo(2);
        assertThat(misuse.err()).contains("--live needs --replay");
    }
}
