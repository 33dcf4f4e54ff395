package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * docs/reference/http-api.md, written from the OpenAPI document the server answers at {@code GET /openapi.json}:
 * every operation with its parameters, request body and answers, then every schema with its properties.
 * {@link HttpApiReferenceTest} compares it with the committed page.
 */
final class HttpApiReference {

    static final String REGENERATE = "mvn -B -o -q -pl server -am test -Dtest=HttpApiReferenceTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dplanvm.docs.write=true";

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    private final JsonNode document;
    private final StringBuilder page = new StringBuilder();

    private HttpApiReference(JsonNode document) {
        this.document = document;
    }

    static String markdown(JsonNode document) {
        return new HttpApiReference(document).render();
    }

    private String render() {
        JsonNode info = document.path("info");
        page.append("# HTTP API reference\n\n")
                .append("<!-- Generated from GET /openapi.json of a running planvm serve by HttpApiReferenceTest;")
                .append(" do not edit.\n     Regenerate: ")
                .append(REGENERATE)
                .append(" -->\n\n")
                .append(plain(info.path("summary").asText()))
                .append(' ')
                .append(plain(info.path("description").asText()))
                .append("\n\nGenerated from the OpenAPI ")
                .append(document.path("openapi").asText())
                .append(" document `planvm serve` answers at `GET /openapi.json` (API version ")
                .append(info.path("version").asText())
                .append("). How to run the server and use the API: [Serving](../guides/serving.md).\n");
        security();
        operations();
        schemas();
        return page.toString();
    }

    private void security() {
        JsonNode schemes = document.path("components").path("securitySchemes");
        if (schemes.isEmpty()) {
            return;
        }
        page.append("\n## Authentication\n\n| scheme | type | description |\n|---|---|---|\n");
        schemes.properties()
                .forEach(scheme -> page.append("| ")
                        .append(scheme.getKey())
                        .append(" | ")
                        .append(cell(scheme.getValue().path("type").asText() + " "
                                + scheme.getValue().path("scheme").asText()))
                        .append(" | ")
                        .append(cell(scheme.getValue().path("description").asText()))
                        .append(" |\n"));
    }

    private record Operation(String method, String path, JsonNode node, JsonNode pathItem) {
        String title() {
            return method.toUpperCase(Locale.ROOT) + " " + path;
        }

        String anchor() {
            return (method + "-" + path)
                    .replaceAll("[^A-Za-z0-9]+", "-")
                    .replaceAll("-+$", "")
                    .toLowerCase(Locale.ROOT);
        }
    }

    private List<Operation> operationList() {
        List<Operation> operations = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
            for (String method : METHODS) {
                if (path.getValue().has(method)) {
                    operations.add(
                            new Operation(method, path.getKey(), path.getValue().get(method), path.getValue()));
                }
            }
        }
        return operations;
    }

    private void operations() {
        List<Operation> operations = operationList();
        page.append("\n## Endpoints\n\n| endpoint | does |\n|---|---|\n");
        for (Operation operation : operations) {
            page.append("| [")
                    .append(code(operation.title()))
                    .append("](#")
                    .append(operation.anchor())
                    .append(") | ")
                    .append(cell(operation.node().path("summary").asText()))
                    .append(" |\n");
        }
        for (Operation operation : operations) {
            operation(operation);
        }
    }

    private void operation(Operation operation) {
        JsonNode node = operation.node();
        page.append("\n### ")
                .append(operation.title())
                .append(" {#")
                .append(operation.anchor())
                .append("}\n\n")
                .append(plain(node.path("summary").asText()))
                .append('\n');
        if (node.has("description")) {
            page.append('\n').append(plain(node.path("description").asText())).append('\n');
        }
        if (node.has("security") && node.path("security").isEmpty()) {
            page.append("\nNo token needed.\n");
        }
        List<JsonNode> parameters = new ArrayList<>();
        operation.pathItem().path("parameters").forEach(p -> parameters.add(resolve(p)));
        node.path("parameters").forEach(p -> parameters.add(resolve(p)));
        if (!parameters.isEmpty()) {
            page.append("\n| parameter | in | type | description |\n|---|---|---|---|\n");
            for (JsonNode parameter : parameters) {
                page.append("| ")
                        .append(code(parameter.path("name").asText()))
                        .append(parameter.path("required").asBoolean() ? " (required)" : "")
                        .append(" | ")
                        .append(parameter.path("in").asText())
                        .append(" | ")
                        .append(type(parameter.path("schema")))
                        .append(" | ")
                        .append(cell(parameter.path("description").asText()))
                        .append(" |\n");
            }
        }
        if (node.has("requestBody")) {
            JsonNode body = resolve(node.path("requestBody"));
            page.append("\nRequest body")
                    .append(body.path("required").asBoolean() ? " (required)" : " (optional)")
                    .append(": ");
            List<String> contents = new ArrayList<>();
            body.path("content")
                    .properties()
                    .forEach(content -> contents.add(code(content.getKey()) + " "
                            + type(content.getValue().path("schema"))));
            page.append(String.join("; ", contents)).append(".\n");
        }
        page.append("\n| answer | description | body |\n|---|---|---|\n");
        for (Map.Entry<String, JsonNode> answer : node.path("responses").properties()) {
            JsonNode response = resolve(answer.getValue());
            List<String> bodies = new ArrayList<>();
            response.path("content")
                    .properties()
                    .forEach(content -> bodies.add(code(content.getKey())
                            + (content.getValue().has("schema")
                                    ? " " + type(content.getValue().path("schema"))
                                    : "")));
            List<String> headers = new ArrayList<>();
            response.path("headers").properties().forEach(header -> headers.add("header " + code(header.getKey())));
            page.append("| ")
                    .append(answer.getKey())
                    .append(" | ")
                    .append(cell(response.path("description").asText()))
                    .append(" | ")
                    .append(String.join("; ", concat(bodies, headers)))
                    .append(" |\n");
        }
    }

    private void schemas() {
        JsonNode schemas = document.path("components").path("schemas");
        if (schemas.isEmpty()) {
            return;
        }
        page.append("\n## Schemas\n");
        for (Map.Entry<String, JsonNode> entry : schemas.properties()) {
            JsonNode schema = entry.getValue();
            page.append("\n### ")
                    .append(entry.getKey())
                    .append(" {#")
                    .append(schemaAnchor(entry.getKey()))
                    .append("}\n\n");
            if (schema.has("description")) {
                page.append(plain(schema.path("description").asText())).append("\n\n");
            }
            if (!schema.has("properties")) {
                page.append("Type: ").append(type(schema)).append(".\n");
                continue;
            }
            page.append("An object");
            if (schema.path("additionalProperties").isBoolean()
                    && !schema.path("additionalProperties").asBoolean()) {
                page.append(" (no other properties)");
            }
            page.append(".\n\n| property | type | description |\n|---|---|---|\n");
            List<String> required = new ArrayList<>();
            schema.path("required").forEach(name -> required.add(name.asText()));
            for (Map.Entry<String, JsonNode> property :
                    schema.path("properties").properties()) {
                page.append("| ")
                        .append(code(property.getKey()))
                        .append(required.contains(property.getKey()) ? " (required)" : "")
                        .append(" | ")
                        .append(type(property.getValue()))
                        .append(" | ")
                        .append(cell(property.getValue().path("description").asText()))
                        .append(" |\n");
            }
        }
    }

    /** A schema as a short phrase: a link to a named schema, a type with its constraints, a choice. */
    private String type(JsonNode schema) {
        if (schema.has("$ref")) {
            String ref = schema.path("$ref").asText();
            String name = ref.substring(ref.lastIndexOf('/') + 1);
            return ref.startsWith("#/components/schemas/") ? "[" + name + "](#" + schemaAnchor(name) + ")" : name;
        }
        List<String> parts = new ArrayList<>();
        if (schema.has("enum")) {
            List<String> values = new ArrayList<>();
            schema.path("enum").forEach(value -> values.add(code(value.toString())));
            parts.add("one of " + String.join(", ", values));
        } else if (schema.has("const")) {
            parts.add(code(schema.path("const").toString()));
        } else if (schema.has("oneOf") || schema.has("anyOf")) {
            List<String> choices = new ArrayList<>();
            schema.path(schema.has("oneOf") ? "oneOf" : "anyOf").forEach(choice -> choices.add(type(choice)));
            parts.add(String.join(" or ", choices));
        } else if (schema.path("type").isArray()) {
            List<String> types = new ArrayList<>();
            schema.path("type").forEach(t -> types.add(t.asText()));
            parts.add(String.join(" or ", types));
        } else if (schema.path("type").asText().equals("array")) {
            parts.add("array" + (schema.has("items") ? " of " + type(schema.path("items")) : ""));
        } else if (schema.has("type")) {
            parts.add(schema.path("type").asText());
        } else {
            parts.add("any");
        }
        for (String constraint :
                List.of("format", "pattern", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems")) {
            if (schema.has(constraint)) {
                parts.add(constraint + " " + code(schema.path(constraint).asText()));
            }
        }
        if (schema.has("default")) {
            parts.add("default " + code(schema.path("default").toString()));
        }
        return String.join(", ", parts);
    }

    /** A {@code $ref} to a parameter, request body or response, resolved; anything else as it is. */
    private JsonNode resolve(JsonNode node) {
        if (!node.has("$ref")) {
            return node;
        }
        String ref = node.path("$ref").asText();
        return resolve(document.at(ref.substring(1)));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static String schemaAnchor(String name) {
        return "schema-" + name.toLowerCase(Locale.ROOT);
    }

    /** Code as HTML, its pipes as character references, so that tables keep their columns in MkDocs and GitHub. */
    private static String code(String text) {
        return "<code>" + text.replace("&", "&amp;").replace("<", "&lt;").replace("|", "&#124;") + "</code>";
    }

    private static String cell(String text) {
        return plain(text).replace("|", "\\|").replace("\n", " ");
    }

    /** Text Markdown shows as it is: no emphasis, code spans or HTML. */
    private static String plain(String text) {
        return text.replace("\\", "\\\\")
                .replace("*", "\\*")
                .replace("_", "\\_")
                .replace("`", "\\`")
                .replace("<", "&lt;");
    }
}
