package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which provider the environment configures, with each ecosystem's usual variables. */
class LlmEnvironmentTest {

    private static LlmConfig config(Map<String, String> env) {
        return LlmConfig.fromEnvironment(env).orElseThrow();
    }

    @Test
    void each_providers_usual_variables_configure_it_alone() {
        assertThat(config(Map.of("ANTHROPIC_API_KEY", "k")).provider()).isEqualTo(LlmProvider.ANTHROPIC);
        assertThat(config(Map.of("GEMINI_API_KEY", "k")).provider()).isEqualTo(LlmProvider.GEMINI);
        assertThat(config(Map.of("OLLAMA_BASE_URL", "http://127.0.0.1:11434")).provider())
                .isEqualTo(LlmProvider.OLLAMA);
        assertThat(config(Map.of("MISTRAL_API_KEY", "k")).provider()).isEqualTo(LlmProvider.MISTRAL);
        LlmConfig azure = config(Map.of(
                "AZURE_OPENAI_ENDPOINT", "https://res.openai.azure.com",
                "AZURE_OPENAI_API_KEY", "k",
                "AZURE_OPENAI_DEPLOYMENT", "prod-4o"));
        assertThat(azure.provider()).isEqualTo(LlmProvider.AZURE_OPENAI);
        assertThat(azure.model()).isEqualTo("prod-4o");
        assertThat(ProviderModels.apiUrl(azure)).isEqualTo("https://res.openai.azure.com/openai/v1");
    }

    @Test
    void each_provider_has_its_default_model_and_address() {
        LlmConfig anthropic = config(Map.of("ANTHROPIC_API_KEY", "k"));
        assertThat(anthropic.model()).isEqualTo("claude-haiku-4-5");
        assertThat(ProviderModels.apiUrl(anthropic)).isEqualTo("https://api.anthropic.com/v1");
        LlmConfig gemini = config(Map.of("GEMINI_API_KEY", "k"));
        assertThat(ProviderModels.apiUrl(gemini)).isEqualTo("https://generativelanguage.googleapis.com/v1beta");
        LlmConfig ollama = config(Map.of("PLANVM_LLM_PROVIDER", "ollama"));
        assertThat(ProviderModels.apiUrl(ollama)).isEqualTo("http://localhost:11434");
        assertThat(config(Map.of("PLANVM_LLM_PROVIDER", "ollama", "OLLAMA_HOST", "0.0.0.0:8080"))
                        .serverUrl())
                .isEqualTo("http://0.0.0.0:8080");
    }

    @Test
    void with_several_keys_openai_comes_first_unless_PLANVM_LLM_PROVIDER_names_another() {
        Map<String, String> both = Map.of("OPENAI_API_KEY", "k1", "ANTHROPIC_API_KEY", "k2");
        assertThat(config(both).provider()).isEqualTo(LlmProvider.OPENAI);

        Map<String, String> chosen =
                Map.of("OPENAI_API_KEY", "k1", "ANTHROPIC_API_KEY", "k2", "PLANVM_LLM_PROVIDER", "anthropic");
        assertThat(config(chosen).provider()).isEqualTo(LlmProvider.ANTHROPIC);
    }

    @Test
    void PLANVM_MODEL_may_name_the_provider_too() {
        LlmConfig config = config(
                Map.of("OPENAI_API_KEY", "k1", "ANTHROPIC_API_KEY", "k2", "PLANVM_MODEL", "anthropic:claude-opus-4-1"));

        assertThat(config.provider()).isEqualTo(LlmProvider.ANTHROPIC);
        assertThat(config.model()).isEqualTo("claude-opus-4-1");
    }

    @Test
    void a_colon_in_a_model_name_of_a_self_hosted_server_stays_part_of_the_name() {
        LlmConfig config = config(Map.of("OPENAI_BASE_URL", "http://127.0.0.1:11434/v1", "PLANVM_MODEL", "mistral:7b"));

        assertThat(config.provider()).isEqualTo(LlmProvider.OPENAI);
        assertThat(config.model()).isEqualTo("mistral:7b");
    }

    @Test
    void bad_settings_say_which_variable_to_fix() {
        assertThatThrownBy(() -> LlmConfig.fromEnvironment(Map.of("PLANVM_LLM_PROVIDER", "claude")))
                .hasMessage("PLANVM_LLM_PROVIDER must name one of openai, anthropic, gemini, ollama, azure-openai,"
                        + " mistral, not 'claude'");
        assertThatThrownBy(() -> LlmConfig.fromEnvironment(Map.of("PLANVM_LLM_PROVIDER", "anthropic")))
                .hasMessage("anthropic needs an API key: set ANTHROPIC_API_KEY");
        assertThatThrownBy(() -> LlmConfig.fromEnvironment(
                        Map.of("AZURE_OPENAI_ENDPOINT", "https://res.openai.azure.com", "AZURE_OPENAI_API_KEY", "k")))
                .hasMessage("azure-openai needs the deployment: set AZURE_OPENAI_DEPLOYMENT");
        assertThatThrownBy(() -> LlmConfig.fromEnvironment(Map.of(
                        "ANTHROPIC_API_KEY", "k", "PLANVM_LLM_PROVIDER", "gemini", "PLANVM_MODEL", "anthropic:x")))
                .hasMessage("PLANVM_MODEL names the provider anthropic but PLANVM_LLM_PROVIDER names gemini");
    }

    @Test
    void nothing_set_is_no_llm() {
        assertThat(LlmConfig.fromEnvironment(Map.of("PLANVM_MODEL", "x", "GOOGLE_API_KEY", "k")))
                .isEmpty();
    }
}
