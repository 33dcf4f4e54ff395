package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.path.NodePath;
import dev.planvm.json.JsonPointers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Phase 2: checks one instruction against the plan schema and turns each schema error into a
 * located sentence. Combinations the schema also states ({@code oneOf}, {@code not},
 * {@code dependentRequired}) and the instruction {@code type} are reported by
 * {@link InstructionTyper}, which can say more helpful things about them.
 */
final class SchemaCheck {

    private SchemaCheck() {}

    /** Returns the diagnostics for one instruction found at {@code pointer}. */
    static List<Diagnostic> check(JsonNode instruction, String pointer, Integer seqNo) {
        return check(instruction, pointer, seqNo, Set.of());
    }

    /** As {@link #check(JsonNode, String, Integer)}, with extra keys allowed on custom-typed instructions. */
    static List<Diagnostic> check(JsonNode instruction, String pointer, Integer seqNo, Set<String> customTypes) {
        boolean custom = customTypes.contains(instruction.path("type").asText());
        List<Diagnostic> out = new ArrayList<>();
        for (Error error : PlanSchemas.compiledInstructionSchema().validate(instruction)) {
            if (ownedByTyper(error) || custom && isTypeSpecific(error)) {
                continue;
            }
            String at = pointer + toPointer(error.getInstanceLocation());
            String keyword = error.getKeyword();
            if ("additionalProperties".equals(keyword)) {
                out.add(Diagnostic.warning(
                        seqNo,
                        JsonPointers.append(at, error.getProperty()),
                        unknownKey(at.equals(pointer), error.getProperty(), instruction)));
            } else if ("propertyNames".equals(keyword)) {
                out.add(Diagnostic.error(
                        seqNo, JsonPointers.append(at, error.getProperty()), invalidVariableName(error.getProperty())));
            } else {
                out.add(Diagnostic.error(seqNo, at, sentence(error)));
            }
        }
        return out.stream().distinct().toList();
    }

    private static boolean ownedByTyper(Error error) {
        String keyword = error.getKeyword();
        String schemaLocation = String.valueOf(error.getSchemaLocation());
        boolean typeEnum = "enum".equals(keyword) && schemaLocation.endsWith("/properties/type/enum");
        boolean legacyOutputVar = "additionalProperties".equals(keyword) && "output_var".equals(error.getProperty());
        return typeEnum
                || legacyOutputVar
                || "oneOf".equals(keyword)
                || "not".equals(keyword)
                || "dependentRequired".equals(keyword)
                || schemaLocation.contains("/oneOf/")
                || schemaLocation.contains("/not/");
    }

    /** Rules a custom type's parameters need not follow. */
    private static boolean isTypeSpecific(Error error) {
        return String.valueOf(error.getSchemaLocation()).contains("/allOf/");
    }

    private static String unknownKey(boolean instructionLevel, String key, JsonNode instruction) {
        if (instructionLevel) {
            return key.equals("output_vars")
                    ? "'output_vars' belongs inside 'parameters'; here it is ignored"
                    : "unknown key '" + key + "' is ignored";
        }
        return "unknown parameter '" + key + "' of " + instruction.path("type").asText() + " is ignored";
    }

    static String invalidVariableName(String name) {
        return "'" + name + "' is not a valid variable name (letters, digits and _, not starting with a digit)";
    }

    private static String sentence(Error error) {
        String name = lastName(error.getInstanceLocation());
        Object[] args = error.getArguments();
        String schemaLocation = String.valueOf(error.getSchemaLocation());
        switch (error.getKeyword()) {
            case "type":
                return subject(name) + " must be " + expectedTypes(String.valueOf(args[1])) + ", not "
                        + article(String.valueOf(args[0]));
            case "required":
                return "missing required key '" + error.getProperty() + "'";
            case "minimum":
                return subject(name) + " must be " + args[0] + " or more, not " + error.getInstanceNode();
            case "pattern":
                String value = error.getInstanceNode().asText();
                return schemaLocation.contains("/toolName/")
                        ? "'" + value + "' is not a valid tool name (an identifier or module:function)"
                        : invalidVariableName(value);
            case "uniqueItems":
                return subject(name) + " names the same variable twice";
            default:
                return subject(name) + " " + error.getMessage();
        }
    }

    private static String subject(String name) {
        return name == null ? "the instruction" : name;
    }

    /** {@code "integer"} or {@code "[string, array]"} as words: "an integer", "a string or an array". */
    private static String expectedTypes(String types) {
        String[] names = types.replace("[", "").replace("]", "").split(",\\s*");
        StringBuilder words = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            words.append(i == 0 ? "" : " or ").append(article(names[i].trim()));
        }
        return words.toString();
    }

    private static String article(String jsonType) {
        return switch (jsonType) {
            case "integer", "object", "array" -> "an " + jsonType;
            case "string", "boolean", "number" -> "a " + jsonType;
            case "null" -> "null";
            default -> jsonType;
        };
    }

    private static String lastName(NodePath path) {
        for (int i = path.getNameCount() - 1; i >= 0; i--) {
            Object element = path.getElement(i);
            if (element instanceof String s) {
                return i == path.getNameCount() - 1 ? s : s + "[" + path.getElement(i + 1) + "]";
            }
        }
        return null;
    }

    static String toPointer(NodePath path) {
        StringBuilder pointer = new StringBuilder();
        for (int i = 0; i < path.getNameCount(); i++) {
            Object element = path.getElement(i);
            pointer.append('/').append(element instanceof String s ? JsonPointers.escape(s) : String.valueOf(element));
        }
        return pointer.toString();
    }
}
