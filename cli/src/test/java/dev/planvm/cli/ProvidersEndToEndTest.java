package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.llm.testing.FakeLlmServer;
import dev.planvm.llm.testing.LlmWire;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code planvm run} and {@code planvm ask --stream} against each provider's fake, with only that provider's
 * variables set: a plan with {@code llm_generate} (text, a JSON Schema) and an LLM condition runs on every
 * provider, and a recorded cassette replays with none.
 */
class ProvidersEndToEndTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    static Stream<LlmWire> wires() {
        return LlmWire.all().stream();
    }

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate",
               "tool_params": {"prompt": "Greet ${name}", "system": "Be brief."}, "output_vars": "greeting"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm_generate",
               "tool_params": {"prompt": "Biggest city of Norway? (${greeting})", "temperature": 0,
                 "response_format": {"type": "object", "properties": {"city": {"type": "string"},
                   "population": {"type": "integer", "minimum": 0}}, "required": ["city", "population"]}},
               "output_vars": "biggest"}},
             {"seq_no": 2, "type": "jmp", "parameters": {"condition_prompt": "Is ${biggest.population} large?",
               "jump_if_true": 3, "jump_if_false": 4}},
             {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${greeting} ${biggest.city} is large"}},
             {"seq_no": 4, "type": "reasoning", "parameters": {"chain_of_thoughts": "done"}}]""";

    private Map<String, String> environment(FakeLlmServer server) {
        Map<String, String> environment = new HashMap<>(server.environment());
        environment.put("PLANVM_LLM_TIMEOUT_SECONDS", "10");
        environment.put("PLANVM_STORE", dir.resolve("runs.db").toString());
        return environment;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void a_plan_with_llm_generate_and_an_llm_condition_runs_on_the_provider_alone(LlmWire wire) throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.json"), PLAN);
        Path cassette = dir.resolve("run.cassette.json");
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.reply("Hello, Ann!")
                    .reply("{\"city\": \"Oslo\", \"population\": 717710}")
                    .reply("{\"result\": true, \"explanation\": \"over half a million\"}");

            CliRun run = CliRun.withEnvironment(
                    environment(server), "run", plan.toString(), "--var", "name=Ann", "--record", cassette.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).isEqualTo("Hello, Ann! Oslo is large\n");
            assertThat(server.refusals()).isEmpty();
            assertThat(server.requests()).hasSize(3);
            String text = Files.readString(cassette);
            assertThat(text).doesNotContain(FakeLlmServer.KEY).doesNotContain(wire.provider());
        }
        CliRun replay = CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()),
                "run",
                plan.toString(),
                "--var",
                "name=Ann",
                "--replay",
                cassette.toString());
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        assertThat(replay.out()).isEqualTo("Hello, Ann! Oslo is large\n");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void the_providers_key_is_a_secret_even_when_the_server_echoes_it(LlmWire wire) throws Exception {
        if (wire.provider().equals("ollama")) {
            return; // a local Ollama has no key
        }
        Path plan = Files.writeString(dir.resolve("plan.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate",
                   "tool_params": {"prompt": "Hi"}, "output_vars": "final_answer"}}]""");
        Path trace = dir.resolve("trace.json");
        Path cassette = dir.resolve("echo.cassette.json");
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.reply("your key is " + FakeLlmServer.KEY);

            CliRun run = CliRun.withEnvironment(
                    environment(server),
                    "run",
                    plan.toString(),
                    "--trace",
                    trace.toString(),
                    "--record",
                    cassette.toString());

            assertThat(run.exitCode()).as(run.err()).isZero();
            String secret = "«secret:"
                    + wire.environment(server.origin(), FakeLlmServer.KEY).entrySet().stream()
                            .filter(e -> e.getValue().equals(FakeLlmServer.KEY))
                            .findFirst()
                            .orElseThrow()
                            .getKey()
                    + "»";
            assertThat(run.out()).isEqualTo("your key is " + secret + "\n");
            for (Path file : new Path[] {trace, cassette}) {
                assertThat(Files.readString(file))
                        .doesNotContain(FakeLlmServer.KEY)
                        .contains(secret);
            }
            assertThat(run.err()).doesNotContain(FakeLlmServer.KEY);
        }
    }

    private static final String GREETING = """
            {"plan": [
              {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "Greet ${name}"}, "output_vars": ["greeting"]}},
              {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${greeting}"}}]}""";

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void ask_streams_the_plan_on_the_provider(LlmWire wire) throws Exception {
        Path trace = dir.resolve("ask.trace.json");
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.replyStreamed(GREETING, 24, Duration.ofMillis(2)).reply("Hello, Ann!");

            CliRun ask = CliRun.withEnvironment(
                    environment(server),
                    "ask",
                    "Greet Ann",
                    "--stream",
                    "--format",
                    "json",
                    "--var",
                    "name=Ann",
                    "--trace",
                    trace.toString());

            assertThat(ask.exitCode()).as(ask.err()).isZero();
            assertThat(ask.out()).isEqualTo("Hello, Ann!\n");
            assertThat(server.refusals()).isEmpty();
            JsonNode document = MAPPER.readTree(trace.toFile());
            assertThat(document.at("/stream/answers/0/instructions")).hasSize(2);
            assertThat(document.at("/tokens/prompt").asInt()).isEqualTo(20);
        }
    }

    @Test
    void ask_on_anthropic_plans_in_json_asked_in_words_since_it_takes_no_recursive_schema() throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(LlmWire.of("anthropic"))) {
            server.reply(GREETING).reply("Hello, Ann!");

            CliRun ask = CliRun.withEnvironment(environment(server), "ask", "Greet Ann", "--var", "name=Ann");

            assertThat(ask.exitCode()).as(ask.err()).isZero();
            assertThat(ask.out()).isEqualTo("Hello, Ann!\n");
            assertThat(ask.err()).contains("json format");
            assertThat(server.refusals()).isEmpty();
            assertThat(server.requests()).hasSize(2); // the strict request was refused before anything was sent
            assertThat(server.requests().get(0).path("output_config").isMissingNode())
                    .isTrue();
            assertThat(server.requests().get(0).path("system").toString()).contains("Respond with JSON only");
        }
    }

    @Test
    void the_model_flag_routes_a_run_to_another_configured_provider() throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate",
                   "tool_params": {"prompt": "Hi"}, "output_vars": "final_answer"}}]""");
        try (FakeLlmServer openai = FakeLlmServer.start(LlmWire.of("openai"));
                FakeLlmServer gemini = FakeLlmServer.start(LlmWire.of("gemini"))) {
            gemini.reply("from gemini");
            Map<String, String> environment = environment(openai);
            environment.putAll(gemini.environment());

            CliRun run =
                    CliRun.withEnvironment(environment, "run", plan.toString(), "--model", "gemini:gemini-2.5-pro");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).isEqualTo("from gemini\n");
            assertThat(gemini.paths()).containsExactly("/v1beta/models/gemini-2.5-pro:generateContent");
            assertThat(openai.requests()).isEmpty();
        }
    }
}
