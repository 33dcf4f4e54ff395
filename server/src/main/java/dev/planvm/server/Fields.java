package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.Spelling;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Typed reads of a request object's fields; a wrong one is a {@code bad_request} naming its JSON pointer. */
final class Fields {

    private final JsonNode object;

    private Fields(JsonNode object) {
        this.object = object;
    }

    /** The fields of {@code body}, which must be an object with only {@code known} keys. */
    static Fields of(JsonNode body, Set<String> known) {
        if (body == null || !body.isObject()) {
            throw bad("", "the request body must be a JSON object, not " + kind(body));
        }
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                String hint = Spelling.closest(name, List.copyOf(known))
                        .map(k -> " (did you mean '" + k + "'?)")
                        .orElse("");
                throw bad(
                        "/" + name,
                        "unknown field '" + name + "'" + hint + "; known fields: "
                                + String.join(", ", known.stream().sorted().toList()));
            }
        }
        return new Fields(body);
    }

    JsonNode node(String name) {
        JsonNode value = object.get(name);
        return value == null || value.isNull() ? null : value;
    }

    String text(String name, String otherwise) {
        JsonNode value = node(name);
        if (value == null) {
            return otherwise;
        }
        if (!value.isTextual()) {
            throw bad("/" + name, "must be a string, not " + kind(value));
        }
        return value.asText();
    }

    boolean bool(String name, boolean otherwise) {
        JsonNode value = node(name);
        if (value == null) {
            return otherwise;
        }
        if (!value.isBoolean()) {
            throw bad("/" + name, "must be true or false, not " + kind(value));
        }
        return value.asBoolean();
    }

    Integer integer(String name, int min) {
        JsonNode value = node(name);
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < min) {
            throw bad("/" + name, "must be an integer of at least " + min + ", not " + value);
        }
        return value.asInt();
    }

    List<String> strings(String name) {
        JsonNode value = node(name);
        List<String> list = new ArrayList<>();
        if (value == null) {
            return list;
        }
        if (!value.isArray()) {
            throw bad("/" + name, "must be an array of strings, not " + kind(value));
        }
        for (int i = 0; i < value.size(); i++) {
            if (!value.get(i).isTextual()) {
                throw bad("/" + name + "/" + i, "must be a string, not " + kind(value.get(i)));
            }
            list.add(value.get(i).asText());
        }
        return list;
    }

    Map<String, JsonNode> variables(String name) {
        JsonNode value = node(name);
        Map<String, JsonNode> variables = new LinkedHashMap<>();
        if (value == null) {
            return variables;
        }
        if (!value.isObject()) {
            throw bad("/" + name, "must be an object of variable names to values, not " + kind(value));
        }
        for (Map.Entry<String, JsonNode> field : value.properties()) {
            if (!field.getKey().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw bad(
                        "/" + name + "/" + field.getKey(),
                        "'" + field.getKey()
                                + "' is not a variable name (letters, digits and _, not starting with a digit)");
            }
            variables.put(field.getKey(), field.getValue());
        }
        return variables;
    }

    static ServiceException bad(String pointer, String message) {
        return new ServiceException(
                ServiceException.Kind.BAD_REQUEST,
                (pointer.isEmpty() ? "" : pointer + ": ") + message,
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                        .objectNode()
                        .put("pointer", pointer));
    }

    static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return switch (node.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
