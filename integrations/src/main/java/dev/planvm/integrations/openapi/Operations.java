package dev.planvm.integrations.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads the operations of an OpenAPI document: for each {@code operationId}, its method, path,
 * parameters (path-level and operation-level; cookie parameters are not supported) and JSON request
 * body, and the params schema a plan's call must fit. One entry method: {@link #read}.
 */
final class Operations {

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head", "options");

    /** Operations by id, and the operations that cannot be made into tools (id to why). */
    record Read(Map<String, Operation> operations, Map<String, String> unusable) {}

    private Operations() {}

    static Read read(OpenApiDocument document) throws OpenApiDocument.Unusable {
        Map<String, Operation> operations = new LinkedHashMap<>();
        Map<String, String> unusable = new LinkedHashMap<>();
        JsonNode paths = document.root.path("paths");
        for (Map.Entry<String, JsonNode> pathEntry : paths.properties()) {
            JsonNode pathItem = document.resolve(pathEntry.getValue());
            for (String method : METHODS) {
                JsonNode operation = pathItem.get(method);
                if (operation == null || !operation.path("operationId").isTextual()) {
                    continue;
                }
                String id = operation.get("operationId").asText();
                try {
                    operations.put(
                            id,
                            operation(id, method.toUpperCase(Locale.ROOT), pathEntry.getKey(), pathItem, operation));
                } catch (IllegalArgumentException e) {
                    unusable.put(id, e.getMessage());
                }
            }
        }
        return new Read(operations, unusable);
    }

    private static Operation operation(String id, String method, String path, JsonNode pathItem, JsonNode operation) {
        Map<String, JsonNode> byKey = new LinkedHashMap<>();
        for (JsonNode parameter : pathItem.path("parameters")) {
            byKey.put(
                    parameter.path("in").asText() + ":" + parameter.path("name").asText(), parameter);
        }
        for (JsonNode parameter : operation.path("parameters")) {
            byKey.put(
                    parameter.path("in").asText() + ":" + parameter.path("name").asText(), parameter);
        }
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        Set<String> required = new LinkedHashSet<>();
        List<Operation.Parameter> parameters = new ArrayList<>();
        for (JsonNode parameter : byKey.values()) {
            String name = parameter.path("name").asText();
            String in = parameter.path("in").asText();
            if (in.equals("cookie")) {
                throw new IllegalArgumentException(
                        "its parameter '" + name + "' is a cookie, which planvm does not send");
            }
            if (!in.equals("path") && !in.equals("query") && !in.equals("header")) {
                throw new IllegalArgumentException(
                        "its parameter '" + name + "' is in '" + in + "', not path, query or header");
            }
            if (properties.has(name)) {
                throw new IllegalArgumentException("two of its parameters are named '" + name + "'");
            }
            ObjectNode property = parameter.path("schema").isObject()
                    ? (ObjectNode) parameter.get("schema").deepCopy()
                    : JsonNodeFactory.instance.objectNode();
            if (parameter.path("description").isTextual() && !property.has("description")) {
                property.put("description", parameter.get("description").asText());
            }
            properties.set(name, property);
            if (in.equals("path") || parameter.path("required").asBoolean(false)) {
                required.add(name);
            }
            parameters.add(new Operation.Parameter(name, in));
        }
        Operation.Body body = body(operation.path("requestBody"), properties, required);
        ArrayNode requiredArray = schema.putArray("required");
        required.forEach(requiredArray::add);
        schema.put("additionalProperties", false);
        String description =
                operation.path("summary").asText(operation.path("description").asText(""));
        return new Operation(id, method, path, description, parameters, body, schema);
    }

    /** The request body: flattened into the params when it is an object whose properties clash with none, else {@code body}. */
    private static Operation.Body body(JsonNode requestBody, ObjectNode properties, Set<String> required) {
        JsonNode schema = jsonSchema(requestBody.path("content"));
        if (schema == null) {
            if (requestBody.path("content").size() > 0) {
                throw new IllegalArgumentException(
                        "its request body is not JSON (" + String.join(", ", names(requestBody.path("content"))) + ")");
            }
            return new Operation.NoBody();
        }
        boolean bodyRequired = requestBody.path("required").asBoolean(false);
        JsonNode bodyProperties = schema.path("properties");
        boolean flat = "object".equals(schema.path("type").asText())
                && bodyProperties.isObject()
                && bodyProperties.size() > 0
                && names(bodyProperties).stream().noneMatch(properties::has);
        if (flat) {
            Set<String> bodyRequiredNames = new LinkedHashSet<>();
            schema.path("required").forEach(name -> bodyRequiredNames.add(name.asText()));
            bodyProperties.properties().forEach(field -> {
                properties.set(field.getKey(), field.getValue());
                if (bodyRequired && bodyRequiredNames.contains(field.getKey())) {
                    required.add(field.getKey());
                }
            });
            return new Operation.Flattened(new LinkedHashSet<>(names(bodyProperties)));
        }
        if (properties.has("body")) {
            throw new IllegalArgumentException("it has a parameter named 'body' besides a request body");
        }
        properties.set("body", schema);
        if (bodyRequired) {
            required.add("body");
        }
        return new Operation.Whole();
    }

    private static JsonNode jsonSchema(JsonNode content) {
        for (Map.Entry<String, JsonNode> type : content.properties()) {
            String media = type.getKey().toLowerCase(Locale.ROOT);
            if (media.startsWith("application/json") || media.contains("+json")) {
                return type.getValue().path("schema").isObject()
                        ? type.getValue().get("schema")
                        : JsonNodeFactory.instance.objectNode();
            }
        }
        return null;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
