package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Supplies tools, found by {@link java.util.ServiceLoader}: list the implementation in
 * {@code META-INF/services/dev.planvm.tools.ToolProvider}. A provider reads its configuration from
 * the environment it is given (never from {@code System.getenv} directly, so tests can pass their
 * own) and offers no tool when it is not configured, saying why in {@link #unavailable}.
 */
public interface ToolProvider {

    /**
     * The top-level keys of the tools configuration ({@code planvm.json}) this provider reads, each
     * with the JSON Schema (draft 2020-12) its value must fit. A key no provider claims is an error.
     */
    default Map<String, JsonNode> configSections() {
        return Map.of();
    }

    /**
     * The tools this provider offers with this setup (its configuration sections, secrets, the
     * environment). Problems in its sections are reported with {@link ToolSetup#problem}; resources
     * to close later are registered with {@link ToolSetup#closeWith}. The default asks
     * {@link #tools(Map)} with the environment.
     */
    default List<Tool> tools(ToolSetup setup) {
        return tools(setup.environment());
    }

    /** The tools available in this environment (empty when not configured). */
    default List<Tool> tools(Map<String, String> environment) {
        return List.of();
    }

    /** For each tool this provider could offer but does not here: its name and why not. */
    default Map<String, String> unavailable(Map<String, String> environment) {
        return Map.of();
    }

    /**
     * As {@link #unavailable(Map)}, with the whole setup (a provider configured in {@code planvm.json} may be
     * available without any environment variable). The default asks {@link #unavailable(Map)}.
     */
    default Map<String, String> unavailable(ToolSetup setup) {
        return unavailable(setup.environment());
    }

    /** A condition evaluator this provider offers in this environment, if any (the LLM provider has one). */
    default Optional<ConditionEvaluator> conditionEvaluator(Map<String, String> environment) {
        return Optional.empty();
    }

    /**
     * As {@link #conditionEvaluator(Map)}, with the whole setup (its configuration sections). The default asks
     * {@link #conditionEvaluator(Map)}.
     */
    default Optional<ConditionEvaluator> conditionEvaluator(ToolSetup setup) {
        return conditionEvaluator(setup.environment());
    }
}
