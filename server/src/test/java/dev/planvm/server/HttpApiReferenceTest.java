package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.testing.ServerFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/reference/http-api.md is generated from what a running server answers at {@code GET /openapi.json}: the
 * committed page must be what the server describes now, so a new route, parameter or field fails here until the
 * page is regenerated (with {@code -Dplanvm.docs.write=true}, which writes it).
 */
class HttpApiReferenceTest {

    private static final Path PAGE = Path.of("../docs/reference/http-api.md");

    @TempDir
    static Path dir;

    private static ServerFixture server;
    private static JsonNode document;

    @BeforeAll
    static void start() throws Exception {
        server = ServerFixture.start(dir);
        ServerFixture.Answer answer = server.get("/openapi.json");
        assertThat(answer.status()).isEqualTo(200);
        document = answer.json();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void the_committed_http_api_reference_is_what_the_server_describes() throws IOException {
        String generated = HttpApiReference.markdown(document);
        if (Boolean.getBoolean("planvm.docs.write")) {
            Files.writeString(PAGE, generated, StandardCharsets.UTF_8);
        }
        String committed = Files.exists(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
        if (!committed.equals(generated)) {
            fail("docs/reference/http-api.md is stale (" + firstDifference(committed, generated)
                    + "): regenerate it with\n  " + HttpApiReference.REGENERATE);
        }
    }

    @Test
    void the_reference_has_every_operation_parameter_and_schema_property() {
        String page = HttpApiReference.markdown(document);
        int operations = 0;
        for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                if (!method.getKey().equals("parameters")) {
                    operations++;
                    assertThat(page).contains("\n### " + method.getKey().toUpperCase() + " " + path.getKey() + " {#");
                    method.getValue().path("parameters").forEach(parameter -> {
                        if (parameter.has("name")) {
                            assertThat(page)
                                    .contains("<code>" + parameter.path("name").asText() + "</code>");
                        }
                    });
                }
            }
        }
        assertThat(operations).isGreaterThan(10);
        for (Map.Entry<String, JsonNode> schema :
                document.path("components").path("schemas").properties()) {
            assertThat(page)
                    .contains("\n### " + schema.getKey() + " {#" + HttpApiReference.schemaAnchor(schema.getKey()));
            schema.getValue()
                    .path("properties")
                    .fieldNames()
                    .forEachRemaining(property -> assertThat(page)
                            .as("property %s of %s", property, schema.getKey())
                            .contains("| <code>" + property + "</code>"));
        }
    }

    private static String firstDifference(String committed, String generated) {
        List<String> a = committed.lines().toList();
        List<String> b = generated.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String left = i < a.size() ? a.get(i) : "<end of file>";
            String right = i < b.size() ? b.get(i) : "<end of file>";
            if (!left.equals(right)) {
                return "line " + (i + 1) + ": the page has '" + left + "', the server says '" + right + "'";
            }
        }
        return "line endings differ";
    }
}
