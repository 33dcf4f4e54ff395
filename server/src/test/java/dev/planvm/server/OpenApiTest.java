package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.server.testing.ServerFixture;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /openapi.json} is a valid OpenAPI 3.1 document (checked against the OAS 3.1 schema,
 * {@code https://spec.openapis.org/oas/3.1/schema/2022-10-07}, which the vertx-openapi jar carries) and
 * describes every route the server has, no more.
 */
class OpenApiTest {

    private static Schema oas;
    private static JsonNode document;

    @TempDir
    Path dir;

    @BeforeAll
    static void load() throws Exception {
        try (InputStream schema =
                        OpenApiTest.class.getResourceAsStream("/spec.openapis.org/oas/3.1/schema/2022-10-07");
                InputStream doc = dev.planvm.server.http.PlanServer.class.getResourceAsStream("openapi.json")) {
            assertThat(schema).as("the OAS 3.1 schema on the test class path").isNotNull();
            oas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(ServerFixture.JSON.readTree(schema));
            document = ServerFixture.JSON.readTree(doc);
        }
    }

    @Test
    void the_document_is_valid_openapi_3_1() {
        List<Error> errors = oas.validate(document);
        assertThat(errors).isEmpty();
        assertThat(document.path("openapi").asText()).isEqualTo("3.1.0");
    }

    @Test
    void an_approval_is_documented_as_naming_its_call() {
        JsonNode approve = document.at("/paths/~1v1~1runs~1{id}~1approve/post");
        assertThat(approve.at("/requestBody/required").asBoolean()).isTrue();
        assertThat(approve.at("/requestBody/content/application~1json/schema/$ref")
                        .asText())
                .isEqualTo("#/components/schemas/Approval");
        assertThat(document.at("/components/schemas/Approval/oneOf").findValues("required"))
                .as("one call_id, or an explicit list of call_ids")
                .extracting(required -> required.get(0).asText())
                .containsExactly("call_id", "call_ids");
        assertThat(document.at("/components/schemas/ContinueRequest/properties/call_id/type")
                        .asText())
                .isEqualTo("string");
        assertThat(document.at("/components/schemas/Pending/properties/call_id").isObject())
                .isTrue();
        assertThat(approve.at("/responses").has("415")).isTrue();
        assertThat(document.at("/components/parameters/RunId/description").asText())
                .contains("exactly");
    }

    @Test
    void the_check_finds_a_broken_document() {
        ObjectNode broken = document.deepCopy();
        broken.put("openapi", "3.0.3");
        ((ObjectNode) broken.at("/paths/~1healthz/get/responses/200")).remove("description");
        ((ObjectNode) broken.at("/paths/~1v1~1runs/post/parameters/0")).put("in", "body");
        List<Error> errors = oas.validate(broken);
        assertThat(errors)
                .extracting(Error::getMessage)
                .anyMatch(m -> m.contains("does not match the regex pattern ^3\\.1"))
                .anyMatch(m -> m.equals("required property 'description' not found"))
                .anyMatch(m -> m.equals(
                        "property 'in' is not evaluated and the schema does not allow unevaluated properties"));
    }

    @Test
    void every_route_is_described_and_every_described_operation_exists() throws Exception {
        Set<String> operations = new TreeSet<>();
        for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
            for (Iterator<String> methods = path.getValue().fieldNames(); methods.hasNext(); ) {
                String method = methods.next();
                if (!method.equals("parameters")) {
                    operations.add(method.toUpperCase() + " " + path.getKey());
                }
            }
        }
        assertThat(operations)
                .containsExactlyInAnyOrder(
                        "GET /healthz",
                        "GET /metrics",
                        "GET /openapi.json",
                        "POST /v1/validate",
                        "POST /v1/runs",
                        "GET /v1/runs",
                        "GET /v1/runs/{id}",
                        "GET /v1/runs/{id}/events",
                        "POST /v1/runs/{id}/resume",
                        "POST /v1/runs/{id}/rerun",
                        "POST /v1/runs/{id}/approve",
                        "POST /v1/runs/{id}/input",
                        "POST /v1/runs/{id}/cancel",
                        "GET /v1/tools",
                        "GET /v1/schema",
                        "GET /v1/runs/{id}/report",
                        "GET /v1/runs/{id}/trace",
                        "GET /v1/runs/{id}/cassette",
                        "GET /",
                        "GET /ui/{file}",
                        "GET /runs/{id}");
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            List<String> unrouted = new ArrayList<>();
            for (String operation : operations) {
                String[] parts = operation.split(" ");
                String path = parts[1].replace("{id}", "0123456789ab").replace("{file}", "app.js");
                ServerFixture.Answer answer = parts[0].equals("GET") ? fixture.get(path) : fixture.post(path, "{}");
                String error =
                        answer.json() == null ? "" : answer.json().path("error").asText();
                if (error.equals("not_found") || error.equals("method_not_allowed")) {
                    unrouted.add(operation + " answered " + error);
                }
            }
            assertThat(unrouted).isEmpty();
        }
    }
}
