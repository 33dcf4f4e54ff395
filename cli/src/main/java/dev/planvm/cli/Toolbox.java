package dev.planvm.cli;

import dev.planvm.tools.Redactor;
import dev.planvm.tools.ToolDiscovery;
import dev.planvm.vm.PlanVm;
import java.util.Map;

/**
 * The tools and LLM the CLI offers, discovered once from the environment ({@code ToolProvider}s
 * on the class path; the LLM provider reads {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL},
 * {@code PLANVM_MODEL}).
 */
final class Toolbox {

    private final ToolDiscovery discovery;
    private final Map<String, String> environment;

    private Toolbox(ToolDiscovery discovery, Map<String, String> environment) {
        this.discovery = discovery;
        this.environment = environment;
    }

    static Toolbox fromEnvironment(Map<String, String> environment) {
        return new Toolbox(ToolDiscovery.discover(environment), environment);
    }

    ToolDiscovery discovery() {
        return discovery;
    }

    /** A VM builder with every available tool, the condition evaluator, and the hint for what is missing. */
    PlanVm.Builder vmBuilder() {
        PlanVm.Builder builder = PlanVm.builder().tools(discovery.tools());
        String apiKey = environment.get("OPENAI_API_KEY");
        if (apiKey != null && apiKey.length() >= Redactor.MIN_LENGTH) {
            builder.secrets(Map.of("OPENAI_API_KEY", apiKey));
        }
        discovery.conditions().ifPresent(builder::conditionEvaluator);
        String llmMissing = discovery.unavailable().get(PlanVm.LLM_TOOL);
        if (llmMissing != null) {
            builder.llmUnavailable(llmMissing);
        }
        return builder;
    }
}
