package dev.planvm.tools;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tools a provider sets up only when they are first needed (an MCP server started when a plan calls
 * one of its tools, not when the configuration is read). A {@link ToolRegistry} asks its resolver for
 * a name it does not know. Thread-safe; a resolved tool stays resolved.
 */
public interface ToolResolver {

    /** No tools. */
    ToolResolver NONE = new ToolResolver() {
        @Override
        public Optional<Tool> resolve(String name) {
            return Optional.empty();
        }

        @Override
        public List<Tool> all() {
            return List.of();
        }
    };

    /** The tool named {@code name}, set up now if it was not yet; empty when this resolver offers none by that name. */
    Optional<Tool> resolve(String name);

    /** Every tool it offers, setting all of them up (for a listing such as {@code planvm tools}). */
    List<Tool> all();

    /** What it could not set up so far, and why: tool (or {@code server:*}) name to a sentence. */
    default Map<String, String> unavailable() {
        return Map.of();
    }
}
