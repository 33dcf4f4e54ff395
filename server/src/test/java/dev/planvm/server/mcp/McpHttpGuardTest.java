package dev.planvm.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.testing.RawHttp;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * planvm's MCP server on Streamable HTTP, tried as a web page (or a DNS-rebound name) would try it, and fed
 * malformed requests: a foreign {@code Origin} or {@code Host} reaches no MCP session, and no error answer
 * carries a Java stack trace. Raw HTTP over a socket to 127.0.0.1.
 */
class McpHttpGuardTest {

    static final String INITIALIZE = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
            + "{\"protocolVersion\": \"2025-06-18\", \"capabilities\": {}, "
            + "\"clientInfo\": {\"name\": \"raw\", \"version\": \"1\"}}}";
    static final String ACCEPT = "Accept: application/json, text/event-stream";
    static final String LIST = "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/list\"}";
    static final String BAD_INIT = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", "
            + "\"params\": {\"protocolVersion\": \"x\", \"capabilities\": {\"roots\": 5}}}";

    @TempDir
    Path dir;

    private RunStore store;
    private PlanService service;
    private PlanMcpServer.Http server;

    @BeforeEach
    void start() throws Exception {
        store = RunStore.open(dir.resolve("runs.db"));
        service = new PlanService(PlanVm.builder().build(), store, ServiceSettings.DEFAULT);
        server = PlanMcpServer.http(service, "127.0.0.1", 0, "test");
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        service.close();
        store.close();
    }

    @Test
    void a_client_on_this_server_may_initialize() throws Exception {
        RawHttp.Answer answer = initialize(host(), "Content-Type: application/json", ACCEPT);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.header("Mcp-Session-Id")).isNotBlank();
    }

    @Test
    void a_page_of_a_foreign_origin_cannot_initialize() throws Exception {
        RawHttp.Answer answer =
                initialize(host(), "Content-Type: application/json", ACCEPT, "Origin: http://evil.example");
        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.header("Mcp-Session-Id")).isNull();
        assertThat(answer.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void a_rebound_name_in_host_cannot_initialize() throws Exception {
        RawHttp.Answer answer = initialize("evil.example:" + server.port(), "Content-Type: application/json", ACCEPT);
        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.header("Mcp-Session-Id")).isNull();
    }

    @Test
    void a_simple_text_plain_post_is_refused() throws Exception {
        RawHttp.Answer answer = initialize(host(), "Content-Type: text/plain", ACCEPT);
        assertThat(answer.status()).isEqualTo(415);
        assertThat(answer.header("Mcp-Session-Id")).isNull();
    }

    @Test
    void no_error_answer_carries_a_stack_trace() throws Exception {
        int port = server.port();
        String host = host();
        String[][] requests = {
            {"not JSON", RawHttp.head("POST", "/mcp", host, "Content-Type: application/json", ACCEPT), "{oops"},
            {"not JSON-RPC", RawHttp.head("POST", "/mcp", host, "Content-Type: application/json", ACCEPT), "[1]"},
            {"a string", RawHttp.head("POST", "/mcp", host, "Content-Type: application/json", ACCEPT), "\"x\""},
            {"no session", RawHttp.head("POST", "/mcp", host, "Content-Type: application/json", ACCEPT), LIST},
            {
                "unknown session",
                RawHttp.head("POST", "/mcp", host, "Content-Type: application/json", ACCEPT, "Mcp-Session-Id: x"),
                LIST
            },
            {"bad capabilities", RawHttp.head("POST", "/mcp", host, "Content-Type: application/json", ACCEPT), BAD_INIT
            },
            {"delete without session", RawHttp.head("DELETE", "/mcp", host), ""},
            {
                "unknown charset",
                RawHttp.head("POST", "/mcp", host, "Content-Type: application/json; charset=bogus", ACCEPT),
                INITIALIZE
            },
            {"no session", RawHttp.head("GET", "/mcp", host, "Accept: text/event-stream"), ""},
            {
                "unknown session",
                RawHttp.head("GET", "/mcp", host, "Accept: text/event-stream", "Mcp-Session-Id: nope"),
                ""
            },
            {
                "bad Accept",
                RawHttp.head("POST", "/mcp", host, "Content-Type: application/json", "Accept: text/html"),
                INITIALIZE
            },
            {"bad method", RawHttp.head("PUT", "/mcp", host, "Content-Type: application/json"), "{}"},
            {"bad escape", RawHttp.head("GET", "/mcp/%zz", host), ""},
            {"no such path", RawHttp.head("GET", "/elsewhere", host), ""},
        };
        for (String[] request : requests) {
            RawHttp.Answer answer = RawHttp.send(port, request[1], request[2]);
            assertThat(answer.status()).as(request[0]).isBetween(400, 499);
            assertNoStackTrace(request[0], answer.body());
        }
        String huge = "X-Big: " + "a".repeat(70_000);
        RawHttp.Answer tooLarge = RawHttp.exchange(
                port, (RawHttp.head("GET", "/mcp", host, huge) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        assertThat(tooLarge.status()).as("a huge header").isBetween(400, 499);
        assertNoStackTrace("a huge header", tooLarge.body());
        RawHttp.Answer garbage =
                RawHttp.exchange(port, "\u0001\u0002 nonsense\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(garbage.status()).as("not HTTP").isIn(0, 400);
        assertNoStackTrace("not HTTP", garbage.body());
    }

    private static void assertNoStackTrace(String what, String body) {
        assertThat(body)
                .as(what + ": " + body)
                .doesNotContain(
                        "\tat ", "at org.", "at java.", "at io.", "Exception", "Caused by", "stackTrace", "Jetty");
    }

    private String host() {
        return "127.0.0.1:" + server.port();
    }

    private RawHttp.Answer initialize(String host, String... headers) throws Exception {
        return RawHttp.send(server.port(), RawHttp.head("POST", "/mcp", host, headers), INITIALIZE);
    }
}
