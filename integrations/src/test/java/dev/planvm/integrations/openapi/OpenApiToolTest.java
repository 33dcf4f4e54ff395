package dev.planvm.integrations.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.integrations.testing.LoopbackHttp;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.tools.config.ToolsConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OpenAPI operations as tools, against a real HTTP server on 127.0.0.1. */
class OpenApiToolTest {

    static final String SPEC = """
            openapi: 3.0.3
            info: {title: Docs, version: "1"}
            servers:
              - url: "{base}/api"
                variables:
                  base: {default: "BASE"}
            paths:
              /docs/{docId}:
                parameters:
                  - {name: docId, in: path, required: true, schema: {type: string}}
                get:
                  operationId: getDoc
                  summary: Reads one document.
                  parameters:
                    - {name: format, in: query, schema: {$ref: "#/components/schemas/Format"}}
                    - {name: X-Trace, in: header, schema: {type: string}}
              /search:
                post:
                  operationId: searchDocs
                  summary: Searches the documents.
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema: {$ref: "#/components/schemas/Query"}
              /tree:
                get:
                  operationId: getTree
                  parameters:
                    - {name: node, in: query, schema: {$ref: "#/components/schemas/Node"}}
              /session:
                get:
                  operationId: getSession
                  parameters:
                    - {name: sid, in: cookie, schema: {type: string}}
            components:
              schemas:
                Format: {type: string, enum: [text, html], nullable: true}
                Query:
                  type: object
                  required: [query]
                  properties:
                    query: {type: string}
                    top_k: {type: integer, minimum: 1, maximum: 50, exclusiveMaximum: true}
                Node:
                  type: object
                  properties:
                    child: {$ref: "#/components/schemas/Node"}
            """;

    @TempDir
    Path dir;

    LoopbackHttp server;
    LoadedTools loaded;

    @BeforeEach
    void start() throws Exception {
        server = new LoopbackHttp();
        Files.writeString(dir.resolve("docs.yaml"), SPEC.replace("BASE", server.url("")));
    }

    @AfterEach
    void stop() {
        if (loaded != null) {
            loaded.close();
        }
        server.close();
    }

    private void load(String openapi) throws Exception {
        Path file = dir.resolve("planvm.json");
        Files.writeString(file, "{\"openapi\": " + openapi + "}");
        loaded = ToolsConfig.load(file, Map.of(), Map.of("DOCS_TOKEN", "docs-token-99"), Configs.providers());
    }

    private Tool tool(String name) {
        return loaded.tools().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void operations_become_tools_whose_params_are_the_parameters_and_the_json_body() throws Exception {
        load("{\"spec\": \"docs.yaml\", \"operations\": [\"getDoc\", \"searchDocs\"]}");
        assertThat(loaded.tools()).extracting(Tool::name).containsExactly("getDoc", "searchDocs");
        JsonNode getDoc = tool("getDoc").paramsSchema();
        assertThat(getDoc.path("required"))
                .containsExactly(Configs.JSON.getNodeFactory().textNode("docId"));
        assertThat(getDoc.at("/properties/format/type"))
                .as("3.0 nullable becomes a null type")
                .isEqualTo(Configs.JSON.readTree("[\"string\", \"null\"]"));
        JsonNode search = tool("searchDocs").paramsSchema();
        assertThat(search.path("properties").has("query")).isTrue();
        assertThat(search.at("/properties/top_k/exclusiveMaximum").asInt())
                .as("3.0 boolean bound in 2020-12 form")
                .isEqualTo(50);
        assertThat(search.path("required"))
                .containsExactly(Configs.JSON.getNodeFactory().textNode("query"));
        assertThat(tool("getDoc").hasSideEffects()).isFalse();
        assertThat(tool("searchDocs").hasSideEffects()).isTrue();
        assertThat(tool("searchDocs").isDestructive()).as("a POST").isFalse();
        assertThat(tool("getDoc").hosts())
                .containsExactly(java.net.URI.create(server.url("/")).getAuthority());
        assertThat(tool("getDoc").description()).isEqualTo("Reads one document.");
    }

    @Test
    void a_call_fills_path_query_header_and_body_and_sends_the_configured_headers() throws Exception {
        server.on("/api/docs/", LoopbackHttp.json(200, "{\"id\": \"d 1\", \"text\": \"hello\"}"));
        server.on("/api/search", LoopbackHttp.json(200, "[{\"id\": \"d1\"}]"));
        load("[{\"spec\": \"docs.yaml\", \"headers\": {\"Authorization\": \"Bearer ${secret:DOCS_TOKEN}\"}}]");
        JsonNode doc = tool("getDoc")
                .invoke(
                        Configs.JSON.readTree("{\"docId\": \"d 1\", \"format\": \"text\", \"X-Trace\": \"t1\"}"),
                        CallContext.of(0));
        assertThat(doc.path("text").asText()).isEqualTo("hello");
        assertThat(server.last().uri()).isEqualTo("/api/docs/d%201?format=text");
        assertThat(server.last().header("X-Trace")).isEqualTo("t1");
        assertThat(server.last().header("Authorization")).isEqualTo("Bearer docs-token-99");

        JsonNode hits =
                tool("searchDocs").invoke(Configs.JSON.readTree("{\"query\": \"q\", \"top_k\": 3}"), CallContext.of(1));
        assertThat(hits.get(0).path("id").asText()).isEqualTo("d1");
        assertThat(server.last().method()).isEqualTo("POST");
        assertThat(Configs.JSON.readTree(server.last().body()))
                .isEqualTo(Configs.JSON.readTree("{\"query\": \"q\", \"top_k\": 3}"));
    }

    @Test
    void a_path_parameter_of_dots_is_sent_percent_encoded_never_as_a_dot_segment() throws Exception {
        server.on("/api/", LoopbackHttp.json(200, "{\"ok\": true}"));
        load("[{\"spec\": \"docs.yaml\", \"operations\": [\"getDoc\"]}]");
        tool("getDoc").invoke(Configs.JSON.readTree("{\"docId\": \"..\"}"), CallContext.of(0));
        assertThat(server.last().uri()).isEqualTo("/api/docs/%2E%2E");
        tool("getDoc").invoke(Configs.JSON.readTree("{\"docId\": \".\"}"), CallContext.of(0));
        assertThat(server.last().uri()).isEqualTo("/api/docs/%2E");
    }

    @Test
    void a_recursive_schema_is_cut_and_an_operation_planvm_cannot_call_is_reported() throws Exception {
        load("{\"spec\": \"docs.yaml\"}");
        assertThat(tool("getTree")
                        .paramsSchema()
                        .at("/properties/node/properties/child")
                        .isObject())
                .isTrue();
        assertThat(loaded.unavailable().get("getSession")).contains("cookie");
    }

    @Test
    void a_spec_whose_body_trickles_is_refused_at_the_fetch_timeout_of_the_whole_body() {
        server.on("/slow.yaml", (exchange, request) -> {
            exchange.getResponseHeaders().set("Content-Type", "application/yaml");
            exchange.sendResponseHeaders(200, 0);
            try (java.io.OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 600; i++) { // a space every 0.1 s: a minute in all
                    out.write(' ');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ToolsConfigException refused = assertTimeoutPreemptively(
                Duration.ofSeconds(60), // not hung: no timing target
                () -> catchThrowableOfType(
                        ToolsConfigException.class,
                        () -> load("{\"spec\": \"" + server.url("/slow.yaml") + "\", \"fetch_timeout_s\": 0.5}")));
        assertThat(refused).isNotNull();
        assertThat(refused.getMessage()).contains("at /openapi/spec").contains("no whole answer within 0.5 s");
    }

    @Test
    void a_spec_served_over_http_resolves_a_relative_server_url_against_its_address() throws Exception {
        String spec = SPEC.replace("\"{base}/api\"", "/api");
        server.on("/openapi.yaml", (exchange, request) -> LoopbackHttp.send(exchange, 200, "application/yaml", spec));
        server.on("/api/docs/", LoopbackHttp.json(200, "{\"ok\": true}"));
        load("{\"spec\": \"" + server.url("/openapi.yaml") + "\", \"operations\": [\"getDoc\"]}");
        assertThat(tool("getDoc")
                        .invoke(Configs.JSON.readTree("{\"docId\": \"a\"}"), CallContext.of(0))
                        .path("ok")
                        .asBoolean())
                .isTrue();
        assertThat(server.last().uri()).isEqualTo("/api/docs/a");
    }

    @Test
    void a_misspelt_operation_and_a_swagger_2_document_are_reported_with_pointers() throws Exception {
        Files.writeString(dir.resolve("old.json"), "{\"swagger\": \"2.0\", \"paths\": {}}");
        ToolsConfigException e = catchThrowableOfType(ToolsConfigException.class, () -> load("""
                [{"spec": "docs.yaml", "operations": ["getDoc", "serchDocs"]}, {"spec": "old.json"}, {"spec": "absent.yaml"}]"""));
        assertThat(e.lines())
                .hasSize(3)
                .anySatisfy(line -> assertThat(line)
                        .contains("at /openapi/0/operations/1: the document has no operation 'serchDocs'")
                        .contains("did you mean 'searchDocs'?"))
                .anySatisfy(
                        line -> assertThat(line).contains("at /openapi/1/spec").contains("Swagger 2"))
                .anySatisfy(
                        line -> assertThat(line).contains("at /openapi/2/spec").contains("does not exist"));
    }

    @Test
    void a_misspelt_key_in_an_entry_gets_a_did_you_mean() {
        ToolsConfigException e = catchThrowableOfType(
                ToolsConfigException.class, () -> load("{\"spec\": \"docs.yaml\", \"operation\": [\"getDoc\"]}"));
        assertThat(e.getMessage())
                .contains("at /openapi/operation: unknown key 'operation' (did you mean 'operations'?)");
    }
}
