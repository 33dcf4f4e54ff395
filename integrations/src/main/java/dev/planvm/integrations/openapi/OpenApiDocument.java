package dev.planvm.integrations.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.internal.Json;
import dev.planvm.json.BoundedHttp;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.YamlMappers;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * An OpenAPI 3.0 or 3.1 document, read from a file or an http(s) URL, as JSON or YAML, bounded in
 * size ({@link #MAX_BYTES}), depth and time. {@link #resolve} inlines local {@code $ref}s
 * ({@code #/components/...}), at most {@link #MAX_REF_DEPTH} deep; a reference cycle becomes the
 * schema that accepts anything.
 */
final class OpenApiDocument {

    static final int MAX_BYTES = 4 << 20;
    static final int MAX_REF_DEPTH = 32;
    private static final int MAX_NODES = 200_000;
    /** How long fetching a document over HTTP may take unless configured ({@code fetch_timeout_s}). */
    static final Duration FETCH_TIMEOUT = Duration.ofSeconds(30);

    private static final ObjectMapper YAML = YamlMappers.mapper(JsonLimits.OPENAPI_DOCUMENT, MAX_BYTES, 50);

    /** A document that cannot be used, with a sentence saying why. */
    static final class Unusable extends Exception {
        private static final long serialVersionUID = 1L;

        Unusable(String message) {
            super(message);
        }
    }

    final JsonNode root;
    /** Where the document came from: a URL when fetched (relative server URLs resolve against it), else null. */
    final URI source;

    private int nodes;

    private OpenApiDocument(JsonNode root, URI source) {
        this.root = root;
        this.source = source;
    }

    /** Reads the document named by {@code spec}: an http(s) URL, or a path relative to {@code baseDirectory}. */
    static OpenApiDocument read(String spec, Path baseDirectory) throws Unusable {
        return read(spec, baseDirectory, FETCH_TIMEOUT);
    }

    /**
     * {@link #read(String, Path)}; a document fetched over HTTP must arrive whole, body included,
     * within {@code fetchTimeout}.
     */
    static OpenApiDocument read(String spec, Path baseDirectory, Duration fetchTimeout) throws Unusable {
        String lower = spec.toLowerCase(java.util.Locale.ROOT);
        boolean remote = lower.startsWith("http://") || lower.startsWith("https://");
        byte[] bytes = remote ? fetch(spec, fetchTimeout) : file(baseDirectory.resolve(spec));
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        JsonNode root;
        try {
            root = text.startsWith("{") ? Json.MAPPER.readTree(text) : YAML.readTree(text);
        } catch (IOException | RuntimeException e) {
            throw new Unusable("the document is neither valid JSON nor valid YAML: "
                    + Json.shorten(String.valueOf(e.getMessage()), 300));
        }
        if (root == null || !root.isObject()) {
            throw new Unusable("the document is not an OpenAPI object");
        }
        String version = root.path("openapi").asText("");
        if (!version.startsWith("3.")) {
            throw new Unusable(
                    root.has("swagger")
                            ? "it is a Swagger 2 document; planvm reads OpenAPI 3.0 and 3.1"
                            : "it has no \"openapi\": \"3.x\" version, so it is not an OpenAPI 3 document");
        }
        return new OpenApiDocument(root, remote ? URI.create(spec) : null);
    }

    /** Whether this is OpenAPI 3.0 (whose schemas use {@code nullable} and boolean exclusive bounds). */
    boolean isVersion30() {
        return root.path("openapi").asText().startsWith("3.0");
    }

    private static byte[] file(Path path) throws Unusable {
        try (InputStream in = Files.newInputStream(path)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new Unusable("the document is larger than " + (MAX_BYTES >> 20) + " MiB");
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new Unusable("the file " + path + " does not exist");
        } catch (IOException e) {
            throw new Unusable("cannot read " + path + ": " + e.getMessage());
        }
    }

    private static byte[] fetch(String url, Duration timeout) throws Unusable {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                    .timeout(timeout)
                    .header("Accept", "application/json, application/yaml;q=0.9, */*;q=0.5")
                    .GET()
                    .build();
            HttpResponse<byte[]> response =
                    BoundedHttp.send(client, request, new BoundedHttp.Bounds(MAX_BYTES, 0, timeout));
            if (response.statusCode() != 200) {
                throw new Unusable("fetching " + url + " answered HTTP " + response.statusCode());
            }
            return response.body();
        } catch (IllegalArgumentException e) {
            throw new Unusable("'" + url + "' is not a valid URL");
        } catch (BoundedHttp.TooLarge e) {
            throw new Unusable("the document at " + url + " is larger than " + (MAX_BYTES >> 20) + " MiB");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unusable("fetching " + url + " was interrupted");
        } catch (IOException e) {
            throw new Unusable("cannot fetch " + url + ": "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
    }

    /**
     * {@code node} with every local {@code $ref} replaced by what it points at (recursively), and for
     * OpenAPI 3.0 schemas {@code nullable} and boolean {@code exclusiveMinimum}/{@code exclusiveMaximum}
     * turned into their JSON Schema 2020-12 forms.
     *
     * @throws Unusable for a remote or dangling reference, or a document that expands beyond bounds
     */
    JsonNode resolve(JsonNode node) throws Unusable {
        return resolve(node, new ArrayDeque<>());
    }

    private JsonNode resolve(JsonNode node, Deque<String> refs) throws Unusable {
        if (++nodes > MAX_NODES) {
            throw new Unusable("its $refs expand beyond " + MAX_NODES + " nodes");
        }
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.isTextual()) {
                String target = ref.asText();
                if (!target.startsWith("#")) {
                    throw new Unusable("the $ref '" + Json.shorten(target, 200)
                            + "' points outside the document; only local $refs (#/...) are read");
                }
                if (refs.contains(target) || refs.size() >= MAX_REF_DEPTH) {
                    return JsonNodeFactory.instance.objectNode();
                }
                JsonNode pointed = root.at(target.substring(1));
                if (pointed.isMissingNode()) {
                    throw new Unusable("the $ref '" + Json.shorten(target, 200) + "' points at nothing");
                }
                refs.push(target);
                JsonNode resolved = resolve(pointed, refs);
                refs.pop();
                return resolved;
            }
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                copy.set(field.getKey(), resolve(field.getValue(), refs));
            }
            if (isVersion30()) {
                downgrade30(copy);
            }
            return copy;
        }
        if (node.isArray()) {
            var copy = JsonNodeFactory.instance.arrayNode();
            for (JsonNode element : node) {
                copy.add(resolve(element, refs));
            }
            return copy;
        }
        return node;
    }

    /** OpenAPI 3.0 schema keywords in JSON Schema 2020-12 terms. */
    private static void downgrade30(ObjectNode schema) {
        if (schema.path("nullable").asBoolean(false) && schema.path("type").isTextual()) {
            String type = schema.get("type").asText();
            schema.putArray("type").add(type).add("null");
        }
        if (schema.path("nullable").isBoolean()) {
            schema.remove("nullable");
        }
        for (String[] bound : new String[][] {{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}}) {
            JsonNode exclusive = schema.get(bound[0]);
            if (exclusive != null && exclusive.isBoolean()) {
                schema.remove(bound[0]);
                if (exclusive.asBoolean() && schema.has(bound[1])) {
                    schema.set(bound[0], schema.remove(bound[1]));
                }
            }
        }
    }
}
