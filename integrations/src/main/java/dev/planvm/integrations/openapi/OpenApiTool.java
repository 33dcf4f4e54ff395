package dev.planvm.integrations.openapi;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.internal.HttpExchange;
import dev.planvm.integrations.internal.Json;
import dev.planvm.integrations.internal.Template;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.StringJoiner;

/**
 * An OpenAPI operation as a tool named by its {@code operationId}: path parameters fill the path
 * (percent-encoded), query parameters the query (an array repeats the name), header parameters
 * headers, the rest the JSON body. Thread-safe and immutable.
 */
final class OpenApiTool implements Tool {

    private final Operation operation;
    private final String baseUrl;
    private final Map<String, String> headers;
    private final HttpExchange exchange;
    /** The entry's {@code timeout_s}, or null when none is configured. */
    private final Duration timeout;

    private final Integer retries;

    /** @param headers the configured headers, secrets already filled in */
    OpenApiTool(
            Operation operation,
            String baseUrl,
            Map<String, String> headers,
            HttpExchange exchange,
            Duration timeout,
            Integer retries) {
        this.operation = operation;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.headers = Map.copyOf(headers);
        this.exchange = exchange;
        this.timeout = timeout;
        this.retries = retries;
    }

    @Override
    public String name() {
        return operation.operationId();
    }

    @Override
    public String description() {
        return operation.description();
    }

    @Override
    public JsonNode paramsSchema() {
        return operation.params();
    }

    @Override
    public boolean hasSideEffects() {
        return operation.hasSideEffects();
    }

    /** A {@code DELETE} operation. */
    @Override
    public boolean isDestructive() {
        return operation.method().equals("DELETE");
    }

    /** The host of its base URL. */
    @Override
    public java.util.List<String> hosts() {
        return dev.planvm.integrations.internal.Hosts.of(baseUrl);
    }

    /** The entry's {@code timeout_s}, when configured. */
    @Override
    public Optional<Duration> callTimeout() {
        return Optional.ofNullable(timeout);
    }

    /** 30 s, when neither the entry's {@code timeout_s} nor the run sets one. */
    @Override
    public Optional<Duration> defaultCallTimeout() {
        return Optional.of(OpenApiToolProvider.DEFAULT_TIMEOUT);
    }

    @Override
    public OptionalInt maxAttempts() {
        return retries == null ? OptionalInt.empty() : OptionalInt.of(retries + 1);
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        String path = operation.path();
        StringJoiner query = new StringJoiner("&");
        Map<String, String> requestHeaders = new LinkedHashMap<>(headers);
        for (Operation.Parameter parameter : operation.parameters()) {
            JsonNode value = params.get(parameter.name());
            if (value == null || value.isNull()) {
                if (parameter.in().equals("path")) {
                    throw ToolException.permanent(
                            "the params have no '" + parameter.name() + "', which the path needs");
                }
                continue;
            }
            switch (parameter.in()) {
                case "path" -> path = path.replace("{" + parameter.name() + "}", Template.encode(text(value)));
                case "query" -> {
                    if (value.isArray()) {
                        value.forEach(item ->
                                query.add(Template.encode(parameter.name()) + "=" + Template.encode(text(item))));
                    } else {
                        query.add(Template.encode(parameter.name()) + "=" + Template.encode(text(value)));
                    }
                }
                default -> {
                    String header = text(value);
                    if (header.indexOf('\r') >= 0 || header.indexOf('\n') >= 0) {
                        throw ToolException.permanent(
                                "the header " + parameter.name() + " would hold a line break; refused");
                    }
                    requestHeaders.put(parameter.name(), header);
                }
            }
        }
        byte[] body = body(params);
        if (body != null) {
            requestHeaders.putIfAbsent("Content-Type", "application/json");
        }
        requestHeaders.putIfAbsent("Accept", "application/json, text/plain;q=0.9, */*;q=0.5");
        String url = baseUrl + path + (query.length() == 0 ? "" : "?" + query);
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw ToolException.permanent("the URL '" + Json.shorten(url, 200) + "' is not valid: " + e.getMessage());
        }
        return exchange.call(
                new HttpExchange.Request(operation.method(), uri, requestHeaders, body),
                context.ioTimeout(callTimeout(), OpenApiToolProvider.DEFAULT_TIMEOUT),
                null);
    }

    private byte[] body(JsonNode params) {
        JsonNode body;
        if (operation.body() instanceof Operation.Flattened flattened) {
            ObjectNode object = JsonNodeFactory.instance.objectNode();
            flattened.properties().forEach(property -> {
                if (params.has(property)) {
                    object.set(property, params.get(property));
                }
            });
            body = object;
        } else if (operation.body() instanceof Operation.Whole) {
            body = params.get("body");
        } else {
            body = null;
        }
        if (body == null) {
            return null;
        }
        try {
            return Json.MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw ToolException.permanent("cannot write the body: " + e.getOriginalMessage());
        }
    }

    private static String text(JsonNode value) {
        return value.isTextual() ? value.asText() : value.toString();
    }

    @Override
    public String toString() {
        return "OpenApiTool[" + name() + " " + operation.method() + " " + baseUrl + operation.path() + "]";
    }
}
