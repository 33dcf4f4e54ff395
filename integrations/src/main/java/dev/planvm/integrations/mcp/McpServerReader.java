package dev.planvm.integrations.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.Json;
import dev.planvm.integrations.internal.Template;
import dev.planvm.json.JsonPointers;
import dev.planvm.tools.ToolSetup;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads one schema-checked entry of {@code mcpServers} into a {@link ServerSpec}, reporting what the
 * schema cannot see with {@link ToolSetup#problem}: a server name a plan cannot use, both or neither
 * of {@code command} and {@code url}, keys of the other transport, bad secret references.
 */
final class McpServerReader {

    static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    private McpServerReader() {}

    /** The spec, or null when the entry has a problem (reported) or is disabled. */
    static ServerSpec read(String name, JsonNode entry, ToolSetup setup) {
        String at = "/" + McpToolProvider.SECTION + "/" + JsonPointers.escape(name);
        int before = setup.problems().size();
        if (!Json.NAME_PART.matcher(name).matches()) {
            setup.problem(
                    at,
                    "the server name '" + name + "' cannot prefix tool names in a plan"
                            + " (use letters, digits, '_', '.', '-', starting with a letter or '_')");
        }
        boolean stdio = entry.has("command");
        boolean http = entry.has("url");
        String type = entry.path("type").asText(stdio ? "stdio" : "http");
        if (stdio == http) {
            setup.problem(
                    at,
                    stdio
                            ? "has both 'command' (a stdio server) and 'url' (an HTTP server); keep one"
                            : "needs 'command' (a server planvm starts, speaking stdio) or 'url' (a Streamable HTTP server)");
            return null;
        }
        if (stdio != type.equals("stdio")) {
            setup.problem(at + "/type", "'" + type + "' does not fit " + (stdio ? "'command'" : "'url'"));
        }
        for (String key : stdio ? List.of("headers") : List.of("args", "env", "cwd")) {
            if (entry.has(key)) {
                setup.problem(
                        at + "/" + key,
                        "'" + key + "' is for " + (stdio ? "HTTP" : "stdio") + " servers; this one uses "
                                + (stdio ? "'command'" : "'url'"));
            }
        }
        ServerSpec.Transport transport = stdio ? stdio(entry, at, setup) : http(entry, at, setup);
        Duration timeout = entry.has("timeout_s") ? seconds(entry.get("timeout_s")) : null;
        Integer retries = entry.has("retries") ? entry.get("retries").asInt() : null;
        Duration start = entry.has("start_timeout_s") ? seconds(entry.get("start_timeout_s")) : DEFAULT_START_TIMEOUT;
        if (setup.problems().size() > before
                || transport == null
                || entry.path("disabled").asBoolean(false)) {
            return null;
        }
        return new ServerSpec(name, transport, timeout, retries, start);
    }

    private static ServerSpec.Stdio stdio(JsonNode entry, String at, ToolSetup setup) {
        List<String> args = new ArrayList<>();
        entry.path("args").forEach(arg -> args.add(arg.asText()));
        Map<String, Template> env = secretTemplates(entry.path("env"), at + "/env", setup);
        var directory = entry.has("cwd") ? setup.resolve(entry.get("cwd").asText()) : setup.baseDirectory();
        return new ServerSpec.Stdio(entry.get("command").asText(), args, env, directory);
    }

    private static ServerSpec.Http http(JsonNode entry, String at, ToolSetup setup) {
        String url = entry.get("url").asText();
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                setup.problem(at + "/url", "must be an http:// or https:// URL with a host");
            }
        } catch (java.net.URISyntaxException e) {
            setup.problem(at + "/url", "is not a valid URL: " + e.getMessage());
        }
        return new ServerSpec.Http(url, secretTemplates(entry.path("headers"), at + "/headers", setup));
    }

    /** Values that may name secrets ({@code ${secret:NAME}}) but no params. */
    private static Map<String, Template> secretTemplates(JsonNode node, String at, ToolSetup setup) {
        Map<String, Template> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String pointer = at + "/" + JsonPointers.escape(field.getKey());
            try {
                Template template = Template.parse(field.getValue().asText());
                if (!template.params().isEmpty()) {
                    setup.problem(
                            pointer,
                            "only ${secret:NAME} may be used here (a server is set up once, not per call);"
                                    + " write $${ for a literal ${");
                } else {
                    values.put(field.getKey(), template);
                }
            } catch (IllegalArgumentException e) {
                setup.problem(pointer, e.getMessage());
            }
        }
        return values;
    }

    private static Duration seconds(JsonNode value) {
        return Duration.ofMillis(Math.round(value.asDouble() * 1000));
    }
}
