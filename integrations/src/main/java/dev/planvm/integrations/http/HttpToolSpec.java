package dev.planvm.integrations.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.BodyTemplate;
import dev.planvm.integrations.internal.Template;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of {@code httpTools}, parsed.
 *
 * @param body    the body template, or null for no body
 * @param output  a JSON pointer into the answer, or null for the whole answer
 * @param timeout its {@code timeout_s}, or null when none is configured (then the run's, else 30 s)
 * @param retries retries after the first attempt, or null when the run's policy decides
 */
record HttpToolSpec(
        String name,
        String description,
        String method,
        Template url,
        Map<String, Template> headers,
        BodyTemplate body,
        String output,
        boolean sideEffects,
        Duration timeout,
        Integer retries,
        JsonNode params) {
    HttpToolSpec {
        Objects.requireNonNull(name, "name");
        headers = Map.copyOf(headers);
    }
}
