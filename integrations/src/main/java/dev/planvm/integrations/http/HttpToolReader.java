package dev.planvm.integrations.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.BodyTemplate;
import dev.planvm.integrations.internal.ParamsSchemas;
import dev.planvm.integrations.internal.Template;
import dev.planvm.json.JsonPointers;
import dev.planvm.json.Spelling;
import dev.planvm.tools.ToolSetup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads one schema-checked entry of {@code httpTools} into an {@link HttpToolSpec}, reporting what the
 * schema cannot see (bad references, secrets outside headers, params the templates read but the
 * params schema does not declare) with {@link ToolSetup#problem}. One entry method: {@link #read}.
 */
final class HttpToolReader {

    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    /** Headers the JDK client sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private HttpToolReader() {}

    /** The spec, or null when the entry has a problem (reported). */
    static HttpToolSpec read(JsonNode entry, String at, ToolSetup setup) {
        int before = setup.problems().size();
        String name = entry.get("name").asText();
        String method = entry.path("method").asText("GET");
        Template url = template(entry.get("url").asText(), at + "/url", setup);
        if (url != null) {
            String lower = url.source().toLowerCase(Locale.ROOT);
            if (!lower.startsWith("http://") && !lower.startsWith("https://")) {
                setup.problem(at + "/url", "the URL must start with http:// or https://");
            }
            noSecrets(url.secrets(), at + "/url", setup);
        }
        Map<String, Template> headers = headers(entry.path("headers"), at + "/headers", setup);
        BodyTemplate body = null;
        JsonNode bodyNode = entry.get("body");
        if (bodyNode != null && !bodyNode.isNull()) {
            try {
                body = BodyTemplate.parse(bodyNode);
                noSecrets(body.secrets(), at + "/body", setup);
            } catch (IllegalArgumentException e) {
                setup.problem(at + "/body", e.getMessage());
            }
        }
        String output =
                entry.hasNonNull("output") && !entry.get("output").asText().isEmpty()
                        ? entry.get("output").asText()
                        : null;
        if (output != null && !output.startsWith("/")) {
            setup.problem(
                    at + "/output", "must be a JSON pointer into the answer, starting with '/' (like /data/items)");
        }
        Set<String> used = new LinkedHashSet<>();
        if (url != null) {
            used.addAll(url.params());
        }
        headers.values().forEach(header -> used.addAll(header.params()));
        if (body != null) {
            used.addAll(body.params());
        }
        JsonNode params = params(entry.get("params"), used, at + "/params", setup);
        boolean sideEffects = entry.has("side_effects")
                ? entry.get("side_effects").asBoolean()
                : !(method.equals("GET") || method.equals("HEAD"));
        Duration timeout = entry.has("timeout_s")
                ? Duration.ofMillis(Math.round(entry.get("timeout_s").asDouble() * 1000))
                : null;
        Integer retries = entry.has("retries") ? entry.get("retries").asInt() : null;
        if (setup.problems().size() > before || url == null) {
            return null;
        }
        return new HttpToolSpec(
                name,
                entry.path("description").asText(""),
                method,
                url,
                headers,
                body,
                output,
                sideEffects,
                timeout,
                retries,
                params);
    }

    /** The secrets the headers name. */
    static Set<String> secrets(HttpToolSpec spec) {
        Set<String> names = new LinkedHashSet<>();
        spec.headers().values().forEach(header -> names.addAll(header.secrets()));
        return names;
    }

    private static Map<String, Template> headers(JsonNode node, String at, ToolSetup setup) {
        Map<String, Template> headers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> header : node.properties()) {
            String pointer = at + "/" + JsonPointers.escape(header.getKey());
            if (!HEADER_NAME.matcher(header.getKey()).matches()) {
                setup.problem(pointer, "'" + header.getKey() + "' is not a valid header name");
                continue;
            }
            if (RESTRICTED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
                setup.problem(
                        pointer,
                        "the header " + header.getKey() + " is set by the HTTP client and cannot be configured");
                continue;
            }
            Template value = template(header.getValue().asText(), pointer, setup);
            if (value != null) {
                headers.put(header.getKey(), value);
            }
        }
        return headers;
    }

    private static JsonNode params(JsonNode declared, Set<String> used, String at, ToolSetup setup) {
        if (declared == null || declared.isNull()) {
            return ParamsSchemas.requiring(used);
        }
        ParamsSchemas.problem(declared).ifPresent(problem -> setup.problem(at, problem));
        JsonNode properties = declared.get("properties");
        if (properties != null && properties.isObject()) {
            List<String> known = new ArrayList<>();
            properties.fieldNames().forEachRemaining(known::add);
            for (String name : used) {
                if (!properties.has(name)) {
                    String hint = closest(name, known);
                    setup.problem(
                            at, "the request reads ${" + name + "}, which the params schema does not declare" + hint);
                }
            }
        }
        return declared;
    }

    private static String closest(String name, List<String> known) {
        return Spelling.closest(name, known)
                .map(candidate -> " (did you mean '" + candidate + "'?)")
                .orElse(known.isEmpty() ? "" : " (it declares " + String.join(", ", known) + ")");
    }

    private static Template template(String text, String at, ToolSetup setup) {
        try {
            return Template.parse(text);
        } catch (IllegalArgumentException e) {
            setup.problem(at, e.getMessage());
            return null;
        }
    }

    private static void noSecrets(Set<String> secrets, String at, ToolSetup setup) {
        if (!secrets.isEmpty()) {
            setup.problem(at, "secrets (${secret:" + secrets.iterator().next() + "}) may only be used in headers");
        }
    }
}
