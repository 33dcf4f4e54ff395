package dev.planvm.integrations.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.HttpExchange;
import dev.planvm.integrations.internal.Json;
import dev.planvm.integrations.internal.Template;
import dev.planvm.json.JsonPointers;
import dev.planvm.json.Spelling;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * OpenAPI operations as tools: the {@code openapi} section of the tools configuration, one object or
 * an array of them:
 * <pre>{@code
 * "openapi": [{"spec": "service.yaml", "operations": ["searchDocs", "getDoc"],
 *              "headers": {"Authorization": "Bearer ${secret:DOCS_TOKEN}"}}]
 * }</pre>
 * {@code spec} is a file (relative to the configuration file) or an http(s) URL, OpenAPI 3.0 or 3.1,
 * JSON or YAML; {@code operations} picks operations by {@code operationId} (default: all of them);
 * optional {@code baseUrl} (default: the document's {@code servers[0]}), {@code timeout_s} (default
 * 30) and {@code retries}, and {@code fetch_timeout_s}: how long fetching a document over HTTP may take,
 * body included (default 30). Each operation becomes a tool named by its {@code operationId}, whose
 * params are its path, query and header parameters plus its JSON request body (the body's properties
 * as params of their own when they clash with no parameter, else one param {@code body}). GET, HEAD
 * and OPTIONS have no side effects; other methods do. Registered in
 * {@code META-INF/services/dev.planvm.tools.ToolProvider}.
 */
public final class OpenApiToolProvider implements ToolProvider {

    /** The configuration key. */
    public static final String SECTION = "openapi";

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private volatile Map<String, String> unavailable = Map.of();

    @Override
    public Map<String, JsonNode> configSections() {
        try (var in = OpenApiToolProvider.class.getResourceAsStream("openapi.schema.json")) {
            return Map.of(SECTION, Json.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<Tool> tools(ToolSetup setup) {
        Optional<JsonNode> section = setup.section(SECTION);
        Map<String, String> notes = new TreeMap<>();
        List<Tool> tools = new ArrayList<>();
        if (section.isPresent()) {
            HttpExchange exchange = new HttpExchange(HttpExchange.DEFAULT_MAX_BODY, Clock.systemUTC());
            JsonNode value = section.get();
            if (value.isObject()) {
                tools.addAll(entry(value, "/" + SECTION, setup, exchange, notes));
            } else {
                for (int i = 0; i < value.size(); i++) {
                    tools.addAll(entry(value.get(i), "/" + SECTION + "/" + i, setup, exchange, notes));
                }
            }
        }
        unavailable = Map.copyOf(notes);
        return tools;
    }

    /** What the last {@link #tools(ToolSetup)} could not offer (operations it cannot call, a secret not set), and why. */
    @Override
    public Map<String, String> unavailable(Map<String, String> environment) {
        return unavailable;
    }

    private static List<Tool> entry(
            JsonNode entry, String at, ToolSetup setup, HttpExchange exchange, Map<String, String> notes) {
        String spec = entry.get("spec").asText();
        OpenApiDocument document;
        Operations.Read read;
        try {
            Duration fetchTimeout = entry.has("fetch_timeout_s")
                    ? Duration.ofMillis(Math.round(entry.get("fetch_timeout_s").asDouble() * 1000))
                    : OpenApiDocument.FETCH_TIMEOUT;
            document = OpenApiDocument.read(spec, setup.baseDirectory(), fetchTimeout);
            read = Operations.read(document);
        } catch (OpenApiDocument.Unusable e) {
            setup.problem(at + "/spec", "cannot use the OpenAPI document '" + spec + "': " + e.getMessage());
            return List.of();
        }
        List<Operation> chosen = chosen(entry, at, read, setup, notes);
        String baseUrl = baseUrl(entry, at, document, setup);
        Map<String, String> headers = new LinkedHashMap<>();
        String missing = headers(entry.path("headers"), at + "/headers", setup, headers);
        if (baseUrl == null || chosen.isEmpty()) {
            return List.of();
        }
        Duration timeout = entry.has("timeout_s")
                ? Duration.ofMillis(Math.round(entry.get("timeout_s").asDouble() * 1000))
                : null;
        Integer retries = entry.has("retries") ? entry.get("retries").asInt() : null;
        List<Tool> tools = new ArrayList<>();
        for (Operation operation : chosen) {
            if (missing != null) {
                notes.put(operation.operationId(), missing);
            } else {
                tools.add(new OpenApiTool(operation, baseUrl, headers, exchange, timeout, retries));
            }
        }
        return tools;
    }

    /** The operations the entry asks for (all when it names none); names it gets wrong are problems. */
    private static List<Operation> chosen(
            JsonNode entry, String at, Operations.Read read, ToolSetup setup, Map<String, String> notes) {
        List<Operation> chosen = new ArrayList<>();
        if (!entry.has("operations")) {
            read.unusable()
                    .forEach((id, why) -> notes.put(id, "the OpenAPI operation '" + id + "' cannot be called: " + why));
            for (Operation operation : read.operations().values()) {
                if (Json.TOOL_NAME.matcher(operation.operationId()).matches()) {
                    chosen.add(operation);
                } else {
                    notes.put(operation.operationId(), "its operationId is not a tool name a plan can call");
                }
            }
            return chosen;
        }
        JsonNode ids = entry.get("operations");
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i).asText();
            String pointer = at + "/operations/" + i;
            Operation operation = read.operations().get(id);
            if (read.unusable().containsKey(id)) {
                setup.problem(
                        pointer,
                        "the operation '" + id + "' cannot be called: "
                                + read.unusable().get(id));
            } else if (operation == null) {
                setup.problem(
                        pointer,
                        "the document has no operation '" + id + "'"
                                + didYouMean(id, read.operations().keySet()));
            } else if (!Json.TOOL_NAME.matcher(id).matches()) {
                setup.problem(pointer, "the operationId '" + id + "' is not a tool name a plan can call");
            } else {
                chosen.add(operation);
            }
        }
        return chosen;
    }

    private static String baseUrl(JsonNode entry, String at, OpenApiDocument document, ToolSetup setup) {
        String url;
        String pointer;
        if (entry.has("baseUrl")) {
            url = entry.get("baseUrl").asText();
            pointer = at + "/baseUrl";
        } else {
            JsonNode server = document.root.path("servers").path(0);
            if (!server.path("url").isTextual()) {
                setup.problem(at, "the OpenAPI document lists no servers; give the service's address as \"baseUrl\"");
                return null;
            }
            url = server.get("url").asText();
            for (Map.Entry<String, JsonNode> variable : server.path("variables").properties()) {
                url = url.replace(
                        "{" + variable.getKey() + "}",
                        variable.getValue().path("default").asText());
            }
            if (document.source != null && !url.contains("://")) {
                url = document.source.resolve(url).toString();
            }
            pointer = at + "/spec";
        }
        String lower = url.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
            setup.problem(
                    pointer,
                    "the service address '" + url + "' is not an http(s) URL"
                            + (entry.has("baseUrl") ? "" : "; give it as \"baseUrl\""));
            return null;
        }
        try {
            URI.create(url);
        } catch (IllegalArgumentException e) {
            setup.problem(pointer, "the service address '" + url + "' is not a valid URL");
            return null;
        }
        return url;
    }

    /** Fills {@code headers}; returns why the tools are unavailable (a secret not set), or null. */
    private static String headers(JsonNode node, String at, ToolSetup setup, Map<String, String> headers) {
        String missing = null;
        Map<String, String> secrets = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> header : node.properties()) {
            String pointer = at + "/" + JsonPointers.escape(header.getKey());
            try {
                Template template = Template.parse(header.getValue().asText());
                if (!template.params().isEmpty()) {
                    setup.problem(
                            pointer,
                            "only ${secret:NAME} may be used in these headers (use the operation's own parameters for values per call)");
                    continue;
                }
                for (String secret : template.secrets()) {
                    Optional<String> value = setup.secret(secret);
                    if (value.isPresent()) {
                        secrets.put(secret, value.get());
                    } else if (missing == null) {
                        missing = "the secret " + secret + " is not set (give it with --secret " + secret
                                + "=... or the environment variable " + secret + ")";
                    }
                }
                if (missing == null) {
                    headers.put(header.getKey(), template.renderSecrets(secrets));
                }
            } catch (IllegalArgumentException e) {
                setup.problem(pointer, e.getMessage());
            }
        }
        return missing;
    }

    private static String didYouMean(String id, Collection<String> known) {
        Optional<String> meant = Spelling.closest(id, known);
        if (meant.isPresent()) {
            return " (did you mean '" + meant.get() + "'?)";
        }
        List<String> all = List.copyOf(known);
        return all.isEmpty() ? "" : "; it has " + String.join(", ", all.subList(0, Math.min(all.size(), 20)));
    }
}
