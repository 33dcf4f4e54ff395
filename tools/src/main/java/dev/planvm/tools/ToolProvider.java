package dev.planvm.tools;

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

    /** The tools available in this environment (empty when not configured). */
    List<Tool> tools(Map<String, String> environment);

    /** For each tool this provider could offer but does not here: its name and why not. */
    default Map<String, String> unavailable(Map<String, String> environment) {
        return Map.of();
    }

    /** A condition evaluator this provider offers in this environment, if any (the LLM provider has one). */
    default Optional<ConditionEvaluator> conditionEvaluator(Map<String, String> environment) {
        return Optional.empty();
    }
}
