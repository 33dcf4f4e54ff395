package dev.planvm.integrations.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.HttpExchange;
import dev.planvm.integrations.internal.Json;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Declarative HTTP tools: the {@code httpTools} section of the tools configuration, an array of
 * <pre>{@code
 * {"name": "lookup", "description": "Looks a city up", "method": "GET",
 *  "url": "http://127.0.0.1:8081/cities/${city}",
 *  "headers": {"Authorization": "Bearer ${secret:CITY_TOKEN}"},
 *  "body": null, "output": "/data", "side_effects": false, "timeout_s": 30, "retries": 3,
 *  "params": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
 * }</pre>
 * {@code ${name}} reads the call's params: percent-encoded in the URL, as text in headers, and in
 * the body with its JSON type when a string is exactly one reference. {@code ${secret:NAME}} (headers
 * only) reads a secret, which is then redacted wherever planvm writes things down; a tool whose
 * secret is not set is unavailable (see {@link #unavailable}). Defaults: method {@code GET}, the
 * whole answer as output, side effects for every method but GET and HEAD, a 30 s timeout (the whole
 * answer, body included), retries as the run decides, and a params schema requiring every
 * referenced param. Registered in {@code META-INF/services/dev.planvm.tools.ToolProvider}.
 */
public final class HttpToolProvider implements ToolProvider {

    /** The configuration key. */
    public static final String SECTION = "httpTools";

    private volatile Map<String, String> unavailable = Map.of();

    @Override
    public Map<String, JsonNode> configSections() {
        return Map.of(SECTION, schema());
    }

    @Override
    public List<Tool> tools(ToolSetup setup) {
        Optional<JsonNode> section = setup.section(SECTION);
        if (section.isEmpty()) {
            unavailable = Map.of();
            return List.of();
        }
        HttpExchange exchange = new HttpExchange(HttpExchange.DEFAULT_MAX_BODY, Clock.systemUTC());
        List<Tool> tools = new ArrayList<>();
        Map<String, String> missing = new TreeMap<>();
        Set<String> names = new HashSet<>();
        JsonNode entries = section.get();
        for (int i = 0; i < entries.size(); i++) {
            String at = "/" + SECTION + "/" + i;
            String name = entries.get(i).get("name").asText();
            if (!names.add(name)) {
                setup.problem(at + "/name", "another HTTP tool is named '" + name + "'");
                continue;
            }
            HttpToolSpec spec = HttpToolReader.read(entries.get(i), at, setup);
            if (spec == null) {
                continue;
            }
            Map<String, String> secrets = new LinkedHashMap<>();
            for (String secret : HttpToolReader.secrets(spec)) {
                setup.secret(secret)
                        .ifPresentOrElse(
                                value -> secrets.put(secret, value),
                                () -> missing.put(
                                        spec.name(),
                                        "the secret " + secret + " is not set (give it with --secret " + secret
                                                + "=... or the environment variable " + secret + ")"));
            }
            if (!missing.containsKey(spec.name())) {
                tools.add(new HttpTool(spec, secrets, exchange));
            }
        }
        unavailable = Map.copyOf(missing);
        return tools;
    }

    /** The tools of the last {@link #tools(ToolSetup)} that could not be offered (a secret not set), and why. */
    @Override
    public Map<String, String> unavailable(Map<String, String> environment) {
        return unavailable;
    }

    static JsonNode schema() {
        try (var in = HttpToolProvider.class.getResourceAsStream("http-tools.schema.json")) {
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
