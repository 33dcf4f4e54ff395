package dev.planvm.tools.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import dev.planvm.json.JsonPointers;
import dev.planvm.json.Spelling;
import dev.planvm.tools.ToolSetup.Problem;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks one section of the configuration against the JSON Schema its provider declares, turning
 * each violation into a located problem. An unknown key ({@code additionalProperties}) gets a
 * did-you-mean from the keys the schema knows at that place. One entry method: {@link #check}.
 */
final class SectionCheck {

    private static final int MAX_PROBLEMS_PER_SECTION = 50;

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    /** The problems of section {@code key} (value {@code value}) against {@code schema}; empty when it fits. */
    List<Problem> check(String key, JsonNode value, JsonNode schema) {
        String base = "/" + JsonPointers.escape(key);
        Schema compiled;
        try {
            compiled = registry.getSchema(schema);
        } catch (RuntimeException e) {
            return List.of(new Problem(
                    base, "the tool provider of this section declares an invalid schema: " + e.getMessage()));
        }
        List<Problem> problems = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Error error : compiled.validate(value)) {
            Problem problem = problem(base, error, value, schema);
            if (seen.add(problem.pointer() + "\u0000" + problem.message())) {
                problems.add(problem);
            }
            if (problems.size() >= MAX_PROBLEMS_PER_SECTION) {
                break;
            }
        }
        return problems;
    }

    private static Problem problem(String base, Error error, JsonNode value, JsonNode schema) {
        String pointer = base + pointerOf(error.getInstanceLocation());
        if ("additionalProperties".equals(error.getKeyword()) && error.getProperty() != null) {
            String unknown = error.getProperty();
            List<String> known = knownKeys(schema, error);
            String hint = Spelling.closest(unknown, known)
                    .map(k -> " (did you mean '" + k + "'?)")
                    .orElse("");
            return new Problem(
                    pointer + "/" + JsonPointers.escape(unknown),
                    "unknown key '" + unknown + "'" + hint
                            + (known.isEmpty() ? "" : "; known keys: " + String.join(", ", known)));
        }
        return new Problem(pointer, message(error));
    }

    /** networknt's message without its leading instance path ({@code $.a.b: }), which the pointer already says. */
    private static String message(Error error) {
        String message = error.getMessage();
        int colon = message.indexOf(": ");
        if (message.startsWith("$") && colon > 0) {
            message = message.substring(colon + 2);
        }
        return message;
    }

    /** The property names of the schema object that holds the failing {@code additionalProperties}. */
    private static List<String> knownKeys(JsonNode schema, Error error) {
        JsonNode holder = schema;
        if (error.getSchemaLocation() != null && error.getSchemaLocation().getFragment() != null) {
            String path = pointerOf(error.getSchemaLocation().getFragment());
            if (path.endsWith("/additionalProperties")) {
                path = path.substring(0, path.length() - "/additionalProperties".length());
            }
            holder = path.isEmpty() ? schema : schema.at(path);
        }
        List<String> known = new ArrayList<>();
        for (Iterator<String> names = holder.path("properties").fieldNames(); names.hasNext(); ) {
            known.add(names.next());
        }
        return known;
    }

    /** A networknt path as a JSON pointer, element by element. */
    static String pointerOf(NodePath path) {
        StringBuilder pointer = new StringBuilder();
        for (int i = 0; i < path.getNameCount(); i++) {
            pointer.append('/').append(JsonPointers.escape(String.valueOf(path.getElement(i))));
        }
        return pointer.toString();
    }
}
