package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolsCommandTest {

    @Test
    void without_an_llm_it_says_what_to_set() {
        CliRun run = CliRun.withEnvironment(Map.of(), "tools");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("llm_generate (not available: no LLM is configured: set OPENAI_API_KEY")
                .contains("LLM conditions (jmp condition_prompt): not available");
    }

    @Test
    void with_an_llm_configured_it_lists_llm_generate_with_its_params_schema() throws Exception {
        CliRun run =
                CliRun.withEnvironment(Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"), "tools", "--format", "json");
        assertThat(run.exitCode()).isZero();
        JsonNode document = new ObjectMapper().readTree(run.out());
        JsonNode tool = null;
        for (JsonNode listed : document.path("tools")) {
            if (listed.path("name").asText().equals("llm_generate")) {
                tool = listed;
            }
        }
        assertThat(tool).as("llm_generate among " + document.path("tools")).isNotNull();
        assertThat(tool.path("description").asText()).isNotBlank();
        assertThat(tool.at("/params_schema/anyOf/0/required/0").asText()).isEqualTo("prompt");
        assertThat(tool.at("/params_schema/anyOf/1/required/0").asText()).isEqualTo("messages");
        assertThat(document.path("unavailable").has("llm_generate")).isFalse();
        assertThat(document.at("/unavailable/vector_search").asText()).startsWith("no knowledge base is configured");
        CliRun text = CliRun.withEnvironment(Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"), "tools");
        assertThat(text.out())
                .contains("\nllm_generate\n")
                .contains("  params: {")
                .contains("LLM conditions (jmp condition_prompt): available");
    }

    @Test
    void a_bad_llm_timeout_setting_is_reported_not_thrown() {
        CliRun run = CliRun.withEnvironment(
                Map.of("OPENAI_BASE_URL", "http://127.0.0.1:9/v1", "PLANVM_LLM_TIMEOUT_SECONDS", "soon"), "tools");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("llm_generate (not available: ").contains("PLANVM_LLM_TIMEOUT_SECONDS");
    }
}
