package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.llm.testing.FakeLlmServer;
import dev.planvm.llm.testing.LlmWire;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.tools.config.ToolsConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One plan, several providers: llm_generate's {@code provider:model}, and planvm.json's named models. */
class LlmRoutingTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private final FakeLlmServer openai = FakeLlmServer.start(LlmWire.of("openai"));
    private final FakeLlmServer anthropic = FakeLlmServer.start(LlmWire.of("anthropic"));
    private final FakeLlmServer ollama = FakeLlmServer.start(LlmWire.of("ollama"));

    @AfterEach
    void stop() {
        openai.close();
        anthropic.close();
        ollama.close();
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>(openai.environment());
        env.putAll(anthropic.environment());
        return env;
    }

    private static Tool tool(LoadedTools loaded, String name) {
        return loaded.tools(dev.planvm.tools.ToolPolicy.ALLOW_ALL).stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void a_call_naming_provider_and_model_goes_to_that_provider() throws Exception {
        openai.reply("from openai");
        anthropic.reply("from anthropic");
        Tool generate = new LlmToolProvider().tools(env()).get(0);

        String first = generate.invoke(MAPPER.readTree("{\"prompt\": \"a\"}"), CallContext.of(0))
                .asText();
        String second = generate.invoke(
                        MAPPER.readTree("{\"prompt\": \"b\", \"model\": \"anthropic:claude-opus-4-1\"}"),
                        CallContext.of(1))
                .asText();

        assertThat(first).isEqualTo("from openai");
        assertThat(second).isEqualTo("from anthropic");
        assertThat(anthropic.requests().get(0).path("model").asText()).isEqualTo("claude-opus-4-1");
        assertThat(openai.requests().get(0).path("model").asText()).isEqualTo("gpt-4o-mini");
    }

    @Test
    void a_call_naming_a_provider_that_is_not_configured_says_what_to_set() throws Exception {
        Tool generate = new LlmToolProvider()
                .tools(Map.of("OPENAI_API_KEY", "sk-0123456789"))
                .get(0);

        assertThatThrownBy(() -> generate.invoke(
                        MAPPER.readTree("{\"prompt\": \"b\", \"model\": \"gemini:gemini-2.5-pro\"}"),
                        CallContext.of(0)))
                .isInstanceOf(ToolException.class)
                .hasMessage(
                        "model 'gemini:gemini-2.5-pro': gemini is not configured: set GEMINI_API_KEY or GOOGLE_API_KEY");
    }

    @Test
    void planvm_json_names_models_and_gives_conditions_and_the_planner_their_own() throws Exception {
        Path config = Files.writeString(dir.resolve("planvm.json"), """
                {"llm": {"model": "smart", "conditions": "local", "planner": "anthropic:claude-planner",
                  "models": {
                    "smart": {"provider": "anthropic", "model": "claude-smart", "api_key_secret": "CLAUDE_KEY",
                              "base_url": "%s", "max_tokens": 1000},
                    "local": {"provider": "ollama", "model": "llama3.2", "base_url": "%s"}}}}""".formatted(anthropic.origin(), ollama.origin()));
        anthropic.reply("smart answer").reply("[]");
        ollama.reply("{\"result\": false, \"explanation\": \"no\"}");

        try (LoadedTools loaded = ToolsConfig.load(
                config, Map.of(), Map.of("CLAUDE_KEY", FakeLlmServer.KEY), List.of(new LlmToolProvider()))) {
            String answer = tool(loaded, "llm_generate")
                    .invoke(MAPPER.readTree("{\"prompt\": \"a\"}"), CallContext.of(0))
                    .asText();
            boolean decided = loaded.conditionEvaluator()
                    .orElseThrow()
                    .evaluate("Is it?", null, CallContext.of(1))
                    .result();
            tool(loaded, PlannerTool.NAME)
                    .invoke(
                            MAPPER.readTree("{\"messages\": [{\"role\": \"user\", \"content\": \"plan\"}]}"),
                            CallContext.of(2));

            assertThat(answer).isEqualTo("smart answer");
            assertThat(decided).isFalse();
            assertThat(anthropic.requests().get(0).path("model").asText()).isEqualTo("claude-smart");
            assertThat(anthropic.requests().get(0).path("max_tokens").asInt()).isEqualTo(1000);
            assertThat(anthropic.requests().get(1).path("model").asText()).isEqualTo("claude-planner");
            assertThat(ollama.requests().get(0).path("model").asText()).isEqualTo("llama3.2");
            assertThat(loaded.secretsUsed()).containsEntry("CLAUDE_KEY", FakeLlmServer.KEY);
        }
    }

    @Test
    void problems_of_the_llm_section_are_located() throws Exception {
        Path config = Files.writeString(dir.resolve("planvm.json"), """
                {"llm": {"conditions": "gemini:gemini-2.5-flash",
                  "models": {"a": {"provider": "anthropic", "api_key_secret": "NOPE"}}}}""");
        Path unknown = Files.writeString(dir.resolve("unknown.json"), """
                {"llm": {"models": {"b": {"provider": "claude"}}}}""");

        assertThatThrownBy(() -> ToolsConfig.load(unknown, Map.of(), Map.of(), List.of(new LlmToolProvider())))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("at /llm/models/b/provider: does not have a value in the enumeration");
        assertThatThrownBy(() -> ToolsConfig.load(
                        config, Map.of("OPENAI_API_KEY", "sk-0123456789"), Map.of(), List.of(new LlmToolProvider())))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("at /llm/models/a: api_key_secret names 'NOPE', which is neither a --secret nor"
                        + " set in the environment")
                .hasMessageContaining("at /llm/conditions: llm.conditions 'gemini:gemini-2.5-flash': gemini is not"
                        + " configured: set GEMINI_API_KEY or GOOGLE_API_KEY");
    }
}
