package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm mcp} on stdio, in a child JVM, fed raw lines: a line that is not JSON-RPC is answered with
 * the JSON-RPC error for it and the server goes on serving; the end of stdin ends the process.
 */
class McpStdioTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INITIALIZE =
            "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
                    + "{\"protocolVersion\": \"2025-06-18\", \"capabilities\": {}, "
                    + "\"clientInfo\": {\"name\": \"raw\", \"version\": \"1\"}}}";

    @TempDir
    Path dir;

    private Process mcp;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        if (mcp != null) {
            mcp.destroyForcibly();
        }
    }

    @Test
    void a_line_that_is_not_json_gets_a_parse_error_and_the_server_keeps_serving() throws Exception {
        start();
        send("this is not JSON {\n");
        JsonNode error = next();
        assertThat(error.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(error.path("id").isNull()).as(error.toString()).isTrue();
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32700);

        send(INITIALIZE + "\n");
        JsonNode initialized = next();
        assertThat(initialized.path("id").asInt()).as(initialized.toString()).isEqualTo(1);
        assertThat(initialized.at("/result/serverInfo/name").asText()).isEqualTo("planvm");
    }

    @Test
    void json_that_is_not_a_json_rpc_message_gets_an_invalid_request_error_with_its_id() throws Exception {
        start();
        send("{\"jsonrpc\": \"2.0\", \"id\": 7, \"params\": 3}\n");
        JsonNode error = next();
        assertThat(error.path("id").asInt()).as(error.toString()).isEqualTo(7);
        assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
        send("[1, 2]\n");
        assertThat(next().at("/error/code").asInt()).isEqualTo(-32600);

        send(INITIALIZE + "\n");
        assertThat(next().at("/result/serverInfo/name").asText()).isEqualTo("planvm");
    }

    @Test
    void the_end_of_stdin_ends_the_server() throws Exception {
        start();
        send(INITIALIZE + "\n");
        assertThat(next().path("id").asInt()).isEqualTo(1);
        mcp.getOutputStream().close();
        assertThat(mcp.waitFor(60, TimeUnit.SECONDS))
                .as("the process ended after stdin closed")
                .isTrue();
        assertThat(mcp.exitValue()).isEqualTo(0);
    }

    @Test
    void the_end_of_stdin_after_a_malformed_line_ends_the_server_too() throws Exception {
        start();
        send("{\"jsonrpc\": \n");
        assertThat(next().at("/error/code").asInt()).isEqualTo(-32700);
        mcp.getOutputStream().close();
        assertThat(mcp.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(mcp.exitValue()).isEqualTo(0);
    }

    private void start() throws IOException {
        mcp = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "mcp",
                        "--store",
                        dir.resolve("runs.db").toString(),
                        "--config",
                        Files.writeString(dir.resolve("planvm.json"), "{}").toString())
                .redirectError(dir.resolve("mcp.err").toFile())
                .start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                }
            } catch (IOException ended) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    private void send(String text) throws IOException {
        OutputStream in = mcp.getOutputStream();
        in.write(text.getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private JsonNode next() throws Exception {
        String line = lines.poll(30, TimeUnit.SECONDS);
        assertThat(line)
                .as("an answer within 30 s; stderr: %s", Files.readString(dir.resolve("mcp.err")))
                .isNotNull();
        return JSON.readTree(line);
    }
}
