package dev.planvm.llm;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the environment says about LLMs: for each {@link LlmProvider} whose variables are set, how to reach
 * it (or why its settings cannot be used), and which one is the default — {@code PLANVM_LLM_PROVIDER}, the
 * provider {@code PLANVM_MODEL} names ({@code anthropic:claude-...}), else the first provider, in
 * {@link LlmProvider} order, whose variables are set. Blank values count as unset.
 *
 * @param configured the providers whose variables are set, with their configuration (model: the default
 *                   provider's is {@code PLANVM_MODEL}'s, the others' their provider's default)
 * @param broken     the providers whose variables are set but cannot be used, with why
 * @param fallback   the default provider, or null when none is set
 * @param timeout    {@code PLANVM_LLM_TIMEOUT_SECONDS}, for every provider
 * @param maxResponseBytes {@code PLANVM_LLM_MAX_RESPONSE_BYTES}, for every provider
 */
record LlmEnvironment(
        Map<LlmProvider, LlmConfig> configured,
        Map<LlmProvider, String> broken,
        LlmProvider fallback,
        Duration timeout,
        long maxResponseBytes) {

    /** The variable holding the default model's name, or {@code provider:model}. */
    static final String MODEL_VARIABLE = "PLANVM_MODEL";

    /** Ollama's own variable for its address ({@code 127.0.0.1:11434}), read when Ollama is named. */
    static final String OLLAMA_HOST = "OLLAMA_HOST";

    /**
     * Reads {@code env}.
     *
     * @throws IllegalArgumentException when the timeout or the size is invalid, {@code PLANVM_LLM_PROVIDER} names
     *                                  no provider, or it and {@code PLANVM_MODEL} name two
     */
    static LlmEnvironment read(Map<String, String> env) {
        Duration timeout = LlmConfig.timeout(value(env, "PLANVM_LLM_TIMEOUT_SECONDS"));
        long cap = LlmConfig.bytes(value(env, "PLANVM_LLM_MAX_RESPONSE_BYTES"));
        String named = value(env, LlmProvider.PROVIDER_VARIABLE);
        LlmProvider chosen = null;
        if (named != null) {
            chosen = LlmProvider.byId(named)
                    .orElseThrow(() -> new IllegalArgumentException(LlmProvider.PROVIDER_VARIABLE + " must name one of "
                            + LlmProvider.ids() + ", not '" + named + "'"));
        }
        LlmProvider first = chosen;
        for (LlmProvider provider : LlmProvider.values()) {
            if (first == null && isSet(provider, env)) {
                first = provider;
            }
        }
        String modelSetting = value(env, MODEL_VARIABLE);
        String model = modelSetting;
        LlmProvider fallback = first;
        if (modelSetting != null) {
            ModelSpec spec = ModelSpec.parse(modelSetting);
            if (spec.provider() != null) {
                boolean takesItWhole = chosen == null
                        && first != null
                        && !isSet(spec.provider(), env)
                        && first.hostsAnyModelName(value(env, first.urlVariable()));
                if (!takesItWhole) {
                    if (chosen != null && chosen != spec.provider()) {
                        throw new IllegalArgumentException(MODEL_VARIABLE + " names the provider " + spec.provider()
                                + " but " + LlmProvider.PROVIDER_VARIABLE + " names " + chosen);
                    }
                    fallback = spec.provider();
                    chosen = spec.provider();
                    model = spec.model();
                }
            }
        }
        Map<LlmProvider, LlmConfig> configured = new EnumMap<>(LlmProvider.class);
        Map<LlmProvider, String> broken = new EnumMap<>(LlmProvider.class);
        for (LlmProvider provider : LlmProvider.values()) {
            if (provider != chosen && !isSet(provider, env)) {
                continue;
            }
            String providerModel = provider == fallback ? model : null;
            try {
                configured.put(provider, config(provider, env, providerModel, timeout, cap));
            } catch (IllegalArgumentException e) {
                broken.put(provider, e.getMessage());
            }
        }
        return new LlmEnvironment(Map.copyOf(configured), Map.copyOf(broken), fallback, timeout, cap);
    }

    /** The default provider's configuration; empty when none is set. */
    Optional<LlmConfig> defaultConfig() {
        if (fallback == null) {
            return Optional.empty();
        }
        String why = broken.get(fallback);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        return Optional.of(configured.get(fallback));
    }

    /**
     * How to reach {@code provider}: as the environment configures it, else with its defaults when it needs no
     * key (Ollama on this machine), else empty.
     */
    Optional<LlmConfig> provider(LlmProvider provider, Map<String, String> env) {
        LlmConfig config = configured.get(provider);
        if (config != null || broken.containsKey(provider)) {
            return Optional.ofNullable(config);
        }
        try {
            return Optional.of(config(provider, env, null, timeout, maxResponseBytes));
        } catch (IllegalArgumentException notConfigured) {
            return Optional.empty();
        }
    }

    /** The configuration of {@code provider} from its variables; {@code model} null: its default. */
    static LlmConfig config(LlmProvider provider, Map<String, String> env, String model, Duration timeout, long cap) {
        String key = key(provider, env);
        String url = value(env, provider.urlVariable());
        if (provider == LlmProvider.OLLAMA && url == null) {
            url = ollamaHost(value(env, OLLAMA_HOST));
        }
        String name = model;
        if (name == null && provider == LlmProvider.AZURE_OPENAI) {
            name = value(env, LlmProvider.AZURE_DEPLOYMENT_VARIABLE);
        }
        if (name == null) {
            name = provider.defaultModel().orElse(null);
        }
        return new LlmConfig(provider, key, url, name, timeout, cap, null);
    }

    /** The provider's key: the first of its key variables that is set. */
    static String key(LlmProvider provider, Map<String, String> env) {
        for (String variable : provider.keyVariables()) {
            String key = value(env, variable);
            if (key != null) {
                return key;
            }
        }
        return null;
    }

    /** Whether the variables that select {@code provider} are set (a key; OpenAI: or a base URL; Ollama: its URL). */
    static boolean isSet(LlmProvider provider, Map<String, String> env) {
        return switch (provider) {
            case OPENAI -> value(env, "OPENAI_API_KEY") != null || value(env, "OPENAI_BASE_URL") != null;
            case GEMINI -> value(env, "GEMINI_API_KEY") != null;
            case OLLAMA, AZURE_OPENAI -> value(env, provider.urlVariable()) != null;
            default -> key(provider, env) != null;
        };
    }

    /** {@code OLLAMA_HOST} ({@code host}, {@code host:port} or a URL) as a URL; null when unset. */
    private static String ollamaHost(String host) {
        if (host == null) {
            return null;
        }
        String url = host.contains("://") ? host : "http://" + host;
        return url.matches("https?://[^/]*:\\d+.*") || url.startsWith("https://") ? url : url + ":11434";
    }

    private static String value(Map<String, String> env, String name) {
        return LlmConfig.blankToNull(env.get(name));
    }
}
