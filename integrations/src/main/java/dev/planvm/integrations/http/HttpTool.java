package dev.planvm.integrations.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.BodyTemplate;
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

/**
 * A tool declared in {@code httpTools}: each call fills the URL, header and body templates from the
 * params and sends one request. Thread-safe and immutable.
 */
final class HttpTool implements Tool {

    private final HttpToolSpec spec;
    private final Map<String, String> secrets;
    private final HttpExchange exchange;

    /** @param secrets the values of the secrets the headers name */
    HttpTool(HttpToolSpec spec, Map<String, String> secrets, HttpExchange exchange) {
        this.spec = spec;
        this.secrets = Map.copyOf(secrets);
        this.exchange = exchange;
    }

    @Override
    public String name() {
        return spec.name();
    }

    @Override
    public String description() {
        return spec.description();
    }

    @Override
    public JsonNode paramsSchema() {
        return spec.params();
    }

    @Override
    public boolean hasSideEffects() {
        return spec.sideEffects();
    }

    /** A {@code DELETE} that has side effects. */
    @Override
    public boolean isDestructive() {
        return spec.sideEffects() && spec.method().equals("DELETE");
    }

    /** The host of its {@code url} (a template when params make the host). */
    @Override
    public java.util.List<String> hosts() {
        return dev.planvm.integrations.internal.Hosts.of(spec.url().source());
    }

    /** Its {@code timeout_s}, when configured. */
    @Override
    public Optional<Duration> callTimeout() {
        return Optional.ofNullable(spec.timeout());
    }

    /** 30 s, when neither its {@code timeout_s} nor the run sets one. */
    @Override
    public Optional<Duration> defaultCallTimeout() {
        return Optional.of(HttpToolReader.DEFAULT_TIMEOUT);
    }

    @Override
    public OptionalInt maxAttempts() {
        return spec.retries() == null ? OptionalInt.empty() : OptionalInt.of(spec.retries() + 1);
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        String url;
        Map<String, String> headers = new LinkedHashMap<>();
        byte[] body = null;
        try {
            url = spec.url().render(params, secrets::get, Template.Encoding.URL_COMPONENT);
            for (Map.Entry<String, Template> header : spec.headers().entrySet()) {
                String value = header.getValue().render(params, secrets::get, Template.Encoding.TEXT);
                if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                    throw ToolException.permanent(
                            "the header " + header.getKey() + " would hold a line break (from the params); refused");
                }
                headers.put(header.getKey(), value);
            }
            if (spec.body() != null) {
                BodyTemplate template = spec.body();
                body = Json.MAPPER.writeValueAsBytes(template.render(params));
                headers.putIfAbsent("Content-Type", "application/json");
            }
        } catch (Template.MissingParam e) {
            throw ToolException.permanent("" + e.getMessage() + ", which the request needs");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ToolException.permanent("cannot write the body: " + e.getOriginalMessage());
        }
        headers.putIfAbsent("Accept", "application/json, text/plain;q=0.9, */*;q=0.5");
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw ToolException.permanent("the URL '" + Json.shorten(url, 200) + "' is not valid: " + e.getMessage());
        }
        return exchange.call(
                new HttpExchange.Request(spec.method(), uri, headers, body),
                context.ioTimeout(callTimeout(), HttpToolReader.DEFAULT_TIMEOUT),
                spec.output());
    }

    @Override
    public String toString() {
        return "HttpTool[" + spec.name() + " " + spec.method() + " "
                + spec.url().source() + "]";
    }
}
