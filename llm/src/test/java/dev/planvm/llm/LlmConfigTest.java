package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.llm.testing.FakeOpenAiServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmConfigTest {

    @Test
    void an_empty_environment_configures_no_llm() {
        assertThat(LlmConfig.fromEnvironment(Map.of())).isEmpty();
    }

    @Test
    void blank_variables_count_as_unset() {
        assertThat(LlmConfig.fromEnvironment(Map.of("OPENAI_API_KEY", " ", "OPENAI_BASE_URL", "")))
                .isEmpty();
    }

    @Test
    void a_model_alone_configures_no_llm() {
        assertThat(LlmConfig.fromEnvironment(Map.of("PLANVM_MODEL", "llama3"))).isEmpty();
    }

    @Test
    void a_base_url_without_a_key_is_enough() {
        LlmConfig config = LlmConfig.fromEnvironment(Map.of("OPENAI_BASE_URL", "http://localhost:11434/v1"))
                .orElseThrow();

        assertThat(config.apiKey()).isNull();
        assertThat(config.baseUrl()).isEqualTo("http://localhost:11434/v1");
    }

    @Test
    void a_key_without_a_base_url_talks_to_openai() {
        LlmConfig config =
                LlmConfig.fromEnvironment(Map.of("OPENAI_API_KEY", "sk-abc")).orElseThrow();

        assertThat(config.serverUrl()).isEqualTo("https://api.openai.com/v1");
    }

    @Test
    void the_model_defaults_to_gpt_4o_mini() {
        LlmConfig config =
                LlmConfig.fromEnvironment(Map.of("OPENAI_API_KEY", "sk-abc")).orElseThrow();

        assertThat(config.model()).isEqualTo("gpt-4o-mini");
    }

    @Test
    void the_timeout_defaults_to_60_seconds() {
        LlmConfig config =
                LlmConfig.fromEnvironment(Map.of("OPENAI_API_KEY", "sk-abc")).orElseThrow();

        assertThat(config.timeout()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void model_and_timeout_come_from_their_variables() {
        LlmConfig config = LlmConfig.fromEnvironment(Map.of(
                        "OPENAI_API_KEY", "sk-abc", "PLANVM_MODEL", "llama3", "PLANVM_LLM_TIMEOUT_SECONDS", "2.5"))
                .orElseThrow();

        assertThat(config.model()).isEqualTo("llama3");
        assertThat(config.timeout()).isEqualTo(Duration.ofMillis(2500));
    }

    @Test
    void a_timeout_that_is_not_a_positive_number_is_rejected_naming_the_variable() {
        assertThatThrownBy(() -> LlmConfig.fromEnvironment(
                        Map.of("OPENAI_API_KEY", "sk-abc", "PLANVM_LLM_TIMEOUT_SECONDS", "soon")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PLANVM_LLM_TIMEOUT_SECONDS must be a positive number of seconds, not 'soon'");
    }

    @Test
    void to_string_hides_the_api_key() {
        LlmConfig config = new LlmConfig("sk-very-secret-1234", null, "gpt-4o-mini", Duration.ofSeconds(60));

        assertThat(config.toString()).doesNotContain("sk-very-secret-1234").contains("gpt-4o-mini");
    }

    @Test
    void the_not_configured_message_names_the_variables_to_set() {
        assertThat(LlmConfig.NOT_CONFIGURED).contains("OPENAI_API_KEY", "OPENAI_BASE_URL", "PLANVM_MODEL");
    }

    @Test
    void a_config_needs_a_key_or_a_base_url() {
        assertThatThrownBy(() -> new LlmConfig(null, " ", "m", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(LlmConfig.NOT_CONFIGURED);
    }

    @Test
    void the_chat_model_sends_the_configured_key() {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.reply("hi");
            new LlmConfig("sk-abc", server.baseUrl(), "m", Duration.ofSeconds(2))
                    .chatModel()
                    .chat("hello");

            assertThat(server.headers("Authorization")).containsExactly("Bearer sk-abc");
        }
    }

    @Test
    void the_chat_model_sends_a_placeholder_key_when_none_is_configured() {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.reply("hi");
            new LlmConfig(null, server.baseUrl(), "m", Duration.ofSeconds(2))
                    .chatModel()
                    .chat("hello");

            assertThat(server.headers("Authorization")).containsExactly("Bearer not-needed");
        }
    }

    @Test
    void the_chat_model_speaks_plain_http_1_1_without_an_h2c_upgrade() {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.reply("hi");
            new LlmConfig(null, server.baseUrl(), "m", Duration.ofSeconds(2))
                    .chatModel()
                    .chat("hello");

            assertThat(server.headers("Upgrade")).containsExactly("");
        }
    }

    @Test
    void the_chat_model_sends_the_configured_model_name() {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.reply("hi");
            new LlmConfig(null, server.baseUrl(), "llama3", Duration.ofSeconds(2))
                    .chatModel()
                    .chat("hello");

            assertThat(server.requests().get(0).path("model").asText()).isEqualTo("llama3");
        }
    }

    @Test
    void the_answer_cap_defaults_to_16_mib_and_is_read_from_the_environment() {
        Map<String, String> env = Map.of("OPENAI_BASE_URL", "http://localhost:11434/v1");
        assertThat(LlmConfig.fromEnvironment(env).orElseThrow().maxResponseBytes())
                .isEqualTo(16L * 1024 * 1024);

        Map<String, String> capped = new java.util.HashMap<>(env);
        capped.put("PLANVM_LLM_MAX_RESPONSE_BYTES", "512KiB");
        assertThat(LlmConfig.fromEnvironment(capped).orElseThrow().maxResponseBytes())
                .isEqualTo(512L * 1024);
        capped.put("PLANVM_LLM_MAX_RESPONSE_BYTES", "1000");
        assertThat(LlmConfig.fromEnvironment(capped).orElseThrow().maxResponseBytes())
                .isEqualTo(1000);
        capped.put("PLANVM_LLM_MAX_RESPONSE_BYTES", "lots");
        assertThatThrownBy(() -> LlmConfig.fromEnvironment(capped))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "PLANVM_LLM_MAX_RESPONSE_BYTES must be a size such as 16MiB, 512KiB or a number of bytes, not 'lots'");
    }
}
