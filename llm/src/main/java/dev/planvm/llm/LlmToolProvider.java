package dev.planvm.llm;

import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Offers {@code llm_generate}, the agent's {@code planvm:planner} and the LLM condition evaluator when the environment configures an
 * LLM ({@link LlmConfig#fromEnvironment}); otherwise says which variables to set. Registered in
 * {@code META-INF/services/dev.planvm.tools.ToolProvider}.
 */
public final class LlmToolProvider implements ToolProvider {

    /** The API key, read through the setup so that it is redacted wherever planvm writes things down. */
    @Override
    public List<Tool> tools(ToolSetup setup) {
        if (setup.environment().containsKey("OPENAI_API_KEY")) {
            setup.secret("OPENAI_API_KEY");
        }
        return tools(setup.environment());
    }

    @Override
    public List<Tool> tools(Map<String, String> environment) {
        return config(environment)
                .<List<Tool>>map(config -> List.of(new LlmGenerateTool(config), new PlannerTool(config)))
                .orElse(List.of());
    }

    @Override
    public Map<String, String> unavailable(Map<String, String> environment) {
        try {
            return LlmConfig.fromEnvironment(environment).isPresent()
                    ? Map.of()
                    : Map.of("llm_generate", LlmConfig.NOT_CONFIGURED);
        } catch (IllegalArgumentException badSetting) {
            return Map.of("llm_generate", badSetting.getMessage());
        }
    }

    @Override
    public Optional<ConditionEvaluator> conditionEvaluator(Map<String, String> environment) {
        return config(environment).map(LlmConditionEvaluator::new);
    }

    /** The configuration, or empty when there is none or a setting is invalid (then {@link #unavailable} says why). */
    private static Optional<LlmConfig> config(Map<String, String> environment) {
        try {
            return LlmConfig.fromEnvironment(environment);
        } catch (IllegalArgumentException badSetting) {
            return Optional.empty();
        }
    }
}
