package dev.planvm.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code PlanVm.builder().config(file)}: the Java way to the tools of a {@code planvm.json}. */
class BuilderConfigTest {

    @TempDir
    Path dir;

    @Test
    void a_plan_calls_an_http_tool_the_configuration_file_declares() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/cities/", exchange -> {
            String city = exchange.getRequestURI().getPath().substring("/cities/".length());
            byte[] body = ("{\"data\": {\"name\": \"" + city + "\", \"population\": 709000}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            Path config = Files.writeString(dir.resolve("planvm.json"), """
                    {"httpTools": [{"name": "lookup", "description": "Looks a city up", "method": "GET",
                      "url": "http://127.0.0.1:%d/cities/${city}", "output": "/data",
                      "params": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]}
                    """.formatted(
                            server.getAddress().getPort()));
            try (PlanVm vm = PlanVm.builder().config(config).build()) {
                RunResult result = vm.run(vm.loader().load("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup",
                          "tool_params": {"city": "Oslo"}, "output_vars": "city"}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${city.name}: ${city.population}"}}]""", "plan.json").planOrThrow(), Map.of());
                assertThat(result.succeeded())
                        .as(String.valueOf(result.error()))
                        .isTrue();
                assertThat(result.finalAnswer().asText()).isEqualTo("Oslo: 709000");
            }
        } finally {
            server.stop(0);
        }
    }
}
