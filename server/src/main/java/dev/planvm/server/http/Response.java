package dev.planvm.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** What a route answers: JSON, text, or nothing more (it streamed its answer itself). */
sealed interface Response permits Response.Json, Response.Text, Response.Streamed {

    /** A JSON answer. */
    record Json(int status, JsonNode body, Map<String, String> headers) implements Response {
        Json(int status, JsonNode body) {
            this(status, body, Map.of());
        }
    }

    /** A text answer of some content type, with headers of its own (a page's Content-Security-Policy). */
    record Text(int status, String contentType, String body, Map<String, String> headers) implements Response {
        Text(int status, String contentType, String body) {
            this(status, contentType, body, Map.of());
        }
    }

    /** The route wrote the answer itself (an event stream). */
    record Streamed(int status) implements Response {}
}
