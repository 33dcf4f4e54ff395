package dev.planvm.llm;

import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolSetup;
import java.util.Map;
import java.util.Optional;

/**
 * Every model planvm can reach in one setup, and which is used where: the environment's providers
 * ({@link LlmEnvironment}), the named models of {@code planvm.json} ({@link LlmSection}), the default model
 * ({@code llm.model}, else the environment's), and the models of conditions and the planner ({@code llm.conditions},
 * {@code llm.planner}, else the default). {@link #route} reads a model spec — a plan's {@code llm_generate}
 * {@code model}, or a setting — as a configuration and the model to ask for.
 */
final class LlmModels {

    /**
     * Where a spec leads.
     *
     * @param config the configuration whose client is used
     * @param model  the model to ask for instead of the configuration's, or null
     */
    record Route(LlmConfig config, String model) {
        /** The configuration for this model alone. */
        LlmConfig asConfig() {
            return model == null ? config : config.withModel(model);
        }
    }

    private final LlmEnvironment environment;
    private final Map<String, String> env;
    private final LlmSection section;
    private final LlmConfig fallback;

    private LlmModels(LlmEnvironment environment, Map<String, String> env, LlmSection section) {
        this.environment = environment;
        this.env = env;
        this.section = section;
        this.fallback = environment.defaultConfig().orElse(null);
    }

    /**
     * The models of {@code setup}; problems of the {@code llm} section are reported to it when {@code report}.
     *
     * @throws IllegalArgumentException when an environment setting is invalid
     */
    static LlmModels of(ToolSetup setup, boolean report) {
        LlmEnvironment environment = LlmEnvironment.read(setup.environment());
        LlmModels models = new LlmModels(environment, setup.environment(), LlmSection.read(setup, environment, report));
        if (report) {
            for (String key : new String[] {"model", "conditions", "planner"}) {
                try {
                    models.setting(key);
                } catch (ToolException e) {
                    setup.problem(LlmSection.pointer(key), e.getMessage());
                }
            }
        }
        return models;
    }

    /** The default model: {@code llm.model}, else the environment's; empty when none is configured. */
    Optional<LlmConfig> defaultConfig() {
        return Optional.ofNullable(setting("model"));
    }

    /** The model of LLM conditions: {@code llm.conditions}, else the default. */
    Optional<LlmConfig> conditions() {
        LlmConfig own = setting("conditions");
        return own != null ? Optional.of(own) : defaultConfig();
    }

    /** The planner's model: {@code llm.planner}, else the default. */
    Optional<LlmConfig> planner() {
        LlmConfig own = setting("planner");
        return own != null ? Optional.of(own) : defaultConfig();
    }

    /** The model a setting names, or null when the setting is absent (for {@code model}: the environment's). */
    private LlmConfig setting(String key) {
        String spec = switch (key) {
            case "model" -> section.model();
            case "conditions" -> section.conditions();
            default -> section.planner();
        };
        if (spec == null) {
            return key.equals("model") ? fallback : null;
        }
        LlmConfig base = key.equals("model") ? fallback : defaultConfig().orElse(null);
        try {
            return route(spec, base).asConfig();
        } catch (ToolException e) {
            throw ToolException.permanent("llm." + key + " '" + spec + "': " + e.getMessage());
        }
    }

    /**
     * Where {@code spec} leads from the default model {@code base}: a named model; {@code provider:model} on that
     * provider (its named model's or the environment's connection) — or, when that provider is not configured and
     * {@code base} is a server of any model names (Ollama, an OpenAI-compatible base URL), the whole spec as a model
     * name there ({@code mistral:7b}); a bare name as a model of {@code base}.
     *
     * @throws ToolException (permanent) when the spec names a provider that is not configured, or none is
     */
    Route route(String spec, LlmConfig base) {
        LlmConfig named = section.models().get(spec);
        if (named != null) {
            return new Route(named, null);
        }
        ModelSpec parsed = ModelSpec.parse(spec);
        if (parsed.provider() != null) {
            Optional<LlmConfig> provider = provider(parsed.provider());
            if (provider.isPresent()) {
                return new Route(provider.get(), parsed.model());
            }
            if (base != null && base.provider().hostsAnyModelName(base.baseUrl())) {
                return new Route(base, spec);
            }
            String why = environment.broken().get(parsed.provider());
            throw ToolException.permanent(parsed.provider().id() + " is not configured: "
                    + (why != null
                            ? why
                            : "set " + String.join(" or ", parsed.provider().keyVariables())));
        }
        if (base == null) {
            throw ToolException.permanent(LlmConfig.NOT_CONFIGURED);
        }
        return new Route(base, spec);
    }

    /** The connection to {@code provider}: its first named model's, the default's, else the environment's. */
    private Optional<LlmConfig> provider(LlmProvider provider) {
        for (LlmConfig model : section.models().values()) {
            if (model.provider() == provider) {
                return Optional.of(model);
            }
        }
        if (fallback != null && fallback.provider() == provider) {
            return Optional.of(fallback);
        }
        return environment.provider(provider, env);
    }
}
