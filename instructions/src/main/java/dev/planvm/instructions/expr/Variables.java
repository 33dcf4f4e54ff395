package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;

/** Read access to variables; returns null when the variable is unset. */
@FunctionalInterface
public interface Variables {

    /** The value of {@code name}, or null when it is unset. */
    JsonNode get(String name);
}
