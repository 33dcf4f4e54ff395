package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Offers {@code llm_generate}, the agent's {@code planvm:planner} and the LLM condition evaluator when the
 * environment ({@link LlmConfig#fromEnvironment}) or the {@code llm} section of {@code planvm.json}
 * ({@link LlmSection}) configures an LLM; otherwise says which variables to set. Registered in
 * {@code META-INF/services/dev.planvm.tools.ToolProvider}.
 */
public final class LlmToolProvider implements ToolProvider {

    @Override
    public Map<String, JsonNode> configSections() {
        return Map.of(LlmSection.KEY, LlmSection.schema());
    }

    /** Every provider's key in the environment is read through the setup, so that it is redacted wherever planvm writes things down. */
    @Override
    public List<Tool> tools(ToolSetup setup) {
        for (LlmProvider provider : LlmProvider.values()) {
            for (String variable : provider.keyVariables()) {
                String value = setup.environment().get(variable);
                if (value != null && !value.isBlank()) {
                    setup.secret(variable);
                }
            }
        }
        return models(setup, true)
                .flatMap(models -> models.defaultConfig()
                        .map(config -> List.<Tool>of(
                                new LlmGenerateTool(config, models),
                                new PlannerTool(models.planner().orElse(config)))))
                .orElse(List.of());
    }

    @Override
    public List<Tool> tools(Map<String, String> environment) {
        return tools(ToolSetup.of(environment));
    }

    @Override
    public Map<String, String> unavailable(ToolSetup setup) {
        try {
            return LlmModels.of(setup, false).defaultConfig().isPresent()
                    ? Map.of()
                    : Map.of("llm_generate", LlmConfig.NOT_CONFIGURED);
        } catch (IllegalArgumentException badSetting) {
            return Map.of("llm_generate", badSetting.getMessage());
        } catch (dev.planvm.tools.ToolException badModel) {
            return Map.of("llm_generate", badModel.getMessage());
        }
    }

    @Override
    public Map<String, String> unavailable(Map<String, String> environment) {
        return unavailable(ToolSetup.of(environment));
    }

    @Override
    public Optional<ConditionEvaluator> conditionEvaluator(ToolSetup setup) {
        return models(setup, false).flatMap(LlmModels::conditions).map(LlmConditionEvaluator::new);
    }

    @Override
    public Optional<ConditionEvaluator> conditionEvaluator(Map<String, String> environment) {
        return conditionEvaluator(ToolSetup.of(environment));
    }

    /**
     * The models of the setup, or empty when a setting is invalid (then {@link #unavailable} says why; with
     * {@code report}, a problem of the {@code llm} section refuses the configuration).
     */
    private static Optional<LlmModels> models(ToolSetup setup, boolean report) {
        try {
            return Optional.of(LlmModels.of(setup, report));
        } catch (IllegalArgumentException | dev.planvm.tools.ToolException badSetting) {
            return Optional.empty();
        }
    }
}
