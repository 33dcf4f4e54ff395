package dev.planvm.llm;

/**
 * A model as plans and settings name it: {@code provider:model} ({@code anthropic:claude-haiku-4-5},
 * {@code ollama:llama3.2:3b} — the provider ends at the first colon), or a bare name (a named model of
 * {@code planvm.json}, else a model of the default provider). A prefix that is no provider's id is part of
 * the model name ({@code llama3.2:3b}).
 *
 * @param provider the provider the spec names, or null for a bare name
 * @param model    the model name (for a bare spec: all of it)
 */
record ModelSpec(LlmProvider provider, String model) {

    static ModelSpec parse(String spec) {
        int colon = spec.indexOf(':');
        if (colon > 0 && colon < spec.length() - 1) {
            return LlmProvider.byId(spec.substring(0, colon))
                    .map(provider -> new ModelSpec(provider, spec.substring(colon + 1)))
                    .orElseGet(() -> new ModelSpec(null, spec));
        }
        return new ModelSpec(null, spec);
    }

    @Override
    public String toString() {
        return provider == null ? model : provider.id() + ":" + model;
    }
}
