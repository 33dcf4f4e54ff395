package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/cities/", exchange -> {
            authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            String city = exchange.getRequestURI().getPath().substring("/cities/".length());
            byte[] body = ("{\"data\": {\"city\": \"" + city + "\", \"population\": 709000}}").getBytes(StandardCharsets.UTF_8);
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
        return Files.writeString(dir.resolve("planvm.json"), """
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
        CliRun run = CliRun.withEnvironment(Map.of("CITY_TOKEN", "city-token-0123456789"), "run", plan.toString(),
                "--config", config().toString(), "--no-store", "--trace", trace.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("709000\n");
        assertThat(authorization.get()).isEqualTo("Bearer city-token-0123456789");
        assertThat(Files.readString(trace)).contains("\"city\" : \"Oslo\"").doesNotContain("city-token-0123456789");
    }

    @Test
    void tools_lists_the_configured_tools_with_their_schemas() throws Exception {
        CliRun tools = CliRun.withEnvironment(Map.of("PLANVM_CONFIG", config().toString(), "CITY_TOKEN", "city-token-0123456789"),
                "tools", "--format", "json");
        assertThat(tools.exitCode()).as(tools.err()).isZero();
        assertThat(tools.out()).contains("\"name\" : \"lookup\"").contains("\"description\" : \"Looks a city up\"")
                .contains("\"required\" : [ \"city\" ]");
    }

    @Test
    void every_problem_of_a_configuration_is_listed_with_its_pointer_and_exit_2() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), """
                {"httpTool": [], "mcpServers": {"fs": {"comand": "node"}}}""");
        for (String command : new String[] {"run", "validate", "tools", "test"}) {
            CliRun run = command.equals("tools") ? CliRun.of("tools", "--config", bad.toString())
                    : CliRun.of(command, Files.writeString(dir.resolve("p.json"), "[]").toString(), "--config", bad.toString());
            assertThat(run.exitCode()).as(command).isEqualTo(2);
            assertThat(run.err()).as(command).contains("at /httpTool:").contains("did you mean 'httpTools'?")
                    .contains("at /mcpServers/fs").contains("comand");
        }
    }
}
