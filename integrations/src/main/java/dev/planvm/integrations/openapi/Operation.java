package dev.planvm.integrations.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Set;

/**
 * One operation of an OpenAPI document, ready to call.
 *
 * @param path       the path template ({@code /docs/{docId}})
 * @param parameters the path, query and header parameters
 * @param body       how the JSON request body is made from the params
 * @param params     the tool's params schema: the parameters and the request body
 */
record Operation(
        String operationId,
        String method,
        String path,
        String description,
        List<Parameter> parameters,
        Body body,
        JsonNode params) {

    Operation {
        parameters = List.copyOf(parameters);
    }

    /** A parameter: its name, and where it goes ({@code path}, {@code query} or {@code header}). */
    record Parameter(String name, String in) {}

    /** How the request body is built. */
    sealed interface Body permits NoBody, Flattened, Whole {}

    /** The operation takes no JSON body. */
    record NoBody() implements Body {}

    /** The body object's properties are params of their own ({@code {"query": ..., "top_k": ...}}). */
    record Flattened(Set<String> properties) implements Body {
        Flattened {
            properties = Set.copyOf(properties);
        }
    }

    /** The whole body is the param {@code body}. */
    record Whole() implements Body {}

    /** GET, HEAD and OPTIONS read; every other method may change something. */
    boolean hasSideEffects() {
        return !(method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS"));
    }
}
