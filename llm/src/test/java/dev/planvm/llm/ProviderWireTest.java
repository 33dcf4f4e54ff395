package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.llm.testing.FakeLlmServer;
import dev.planvm.llm.testing.LlmWire;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every provider, through its langchain4j module, against a fake of its wire written from its API reference:
 * each feature of {@code llm_generate}, conditions and the planner arrives where the provider's API carries it,
 * in a form the provider takes (the fake refuses anything else), and what comes back — answers, streamed pieces,
 * token counts, errors, rate limits — reads the same for all.
 */
class ProviderWireTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static Stream<LlmWire> wires() {
        return LlmWire.all().stream();
    }

    /** The tools of the provider's variables alone, as the tool provider builds them. */
    private static List<dev.planvm.tools.Tool> tools(FakeLlmServer server) {
        Map<String, String> env = new HashMap<>(server.environment());
        env.put("PLANVM_LLM_TIMEOUT_SECONDS", "10");
        return new LlmToolProvider().tools(env);
    }

    private static LlmGenerateTool generate(FakeLlmServer server) {
        return (LlmGenerateTool) tools(server).get(0);
    }

    /** What a call reported. */
    private static final class Seen implements CallEvents {
        final List<String> pieces = new ArrayList<>();
        final List<TokenCount> tokens = new ArrayList<>();

        @Override
        public synchronized void tokens(TokenCount spent) {
            tokens.add(spent);
        }

        @Override
        public synchronized void chunk(String text) {
            pieces.add(text);
        }
    }

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void system_temperature_and_max_tokens_arrive_where_the_provider_reads_them(LlmWire wire) throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.reply("Hello, Ann!");
            Seen seen = new Seen();

            JsonNode answer = generate(server)
                    .invoke(
                            json("{\"prompt\": \"Greet Ann\", \"system\": \"Be brief.\", \"temperature\": 0.5,"
                                    + " \"max_tokens\": 77}"),
                            new CallContext(0, List.of(), seen));

            assertThat(server.refusals()).isEmpty();
            assertThat(answer.asText()).isEqualTo("Hello, Ann!");
            LlmWire.Sent sent =
                    wire.sent(server.paths().get(0), server.requests().get(0));
            assertThat(sent.system()).isEqualTo("Be brief.");
            assertThat(sent.temperature()).isEqualTo(0.5);
            assertThat(sent.maxTokens()).isEqualTo(77);
            assertThat(sent.format()).isEqualTo("text");
            assertThat(server.requests().get(0).toString()).contains("Greet Ann");
            assertThat(seen.tokens).containsExactly(new TokenCount(10, 5));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void json_mode_is_asked_the_providers_way_and_read(LlmWire wire) throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.reply("{\"city\": \"Oslo\"}");

            JsonNode answer = generate(server)
                    .invoke(json("{\"prompt\": \"City?\", \"response_format\": \"json\"}"), CallContext.of(0));

            assertThat(server.refusals()).isEmpty();
            assertThat(answer).isEqualTo(json("{\"city\": \"Oslo\"}"));
            LlmWire.Sent sent =
                    wire.sent(server.paths().get(0), server.requests().get(0));
            if (wire.provider().equals("anthropic")) { // no schemaless JSON mode: asked in words
                assertThat(sent.format()).isEqualTo("text");
                assertThat(sent.system()).isEqualTo(LlmClient.JSON_INSTRUCTION);
            } else {
                assertThat(sent.format()).isEqualTo("json");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void a_json_schema_is_sent_in_the_form_the_provider_takes_and_the_answer_fits_the_plans_schema(LlmWire wire)
            throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            // OpenAI's strict form makes the optional "nickname" required and nullable: the model answers null
            boolean strict = wire.provider().equals("openai") || wire.provider().equals("azure-openai");
            server.reply("{\"city\": \"Oslo\", \"population\": 717710" + (strict ? ", \"nickname\": null}" : "}"));

            JsonNode answer = generate(server)
                    .invoke(
                            json(
                                    "{\"prompt\": \"Biggest city?\", \"response_format\": {\"type\": \"object\","
                                            + " \"properties\": {\"city\": {\"type\": \"string\", \"minLength\": 1},"
                                            + " \"population\": {\"type\": \"integer\", \"minimum\": 0},"
                                            + " \"nickname\": {\"type\": \"string\"}}, \"required\": [\"city\", \"population\"]}}"),
                            CallContext.of(0));

            assertThat(server.refusals()).isEmpty();
            assertThat(answer).isEqualTo(json("{\"city\": \"Oslo\", \"population\": 717710}"));
            LlmWire.Sent sent =
                    wire.sent(server.paths().get(0), server.requests().get(0));
            assertThat(sent.format()).isEqualTo("schema");
            assertThat(sent.schema().at("/properties/city").isObject()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void a_condition_is_decided(LlmWire wire) {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.reply("{\"result\": true, \"explanation\": \"4 = 2*2\"}");
            Map<String, String> env = new HashMap<>(server.environment());

            ConditionResult result = new LlmToolProvider()
                    .conditionEvaluator(env)
                    .orElseThrow()
                    .evaluate("Is 4 even?", null, CallContext.of(1));

            assertThat(server.refusals()).isEmpty();
            assertThat(result).isEqualTo(new ConditionResult(true, "4 = 2*2"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void the_planner_streams_each_piece_and_counts_the_tokens(LlmWire wire) throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.replyStreamed(List.of("[{\"seq_no\": 0, ", "\"type\": \"reasoning\"}]"), Duration.ofMillis(5));
            Seen seen = new Seen();
            PlannerTool planner = (PlannerTool) tools(server).get(1);

            JsonNode answer = planner.invoke(
                    json("{\"messages\": [{\"role\": \"system\", \"content\": \"Plan.\"},"
                            + " {\"role\": \"user\", \"content\": \"plan\"}], \"stream\": true,"
                            + " \"response_format\": {\"type\": \"json_object\"}}"),
                    new CallContext(0, List.of(), seen));

            assertThat(server.refusals()).isEmpty();
            assertThat(answer.asText()).isEqualTo("[{\"seq_no\": 0, \"type\": \"reasoning\"}]");
            assertThat(String.join("", seen.pieces)).isEqualTo(answer.asText());
            assertThat(seen.pieces).hasSizeGreaterThanOrEqualTo(2);
            assertThat(seen.tokens.stream().reduce(TokenCount.ZERO, TokenCount::plus))
                    .isEqualTo(new TokenCount(10, 5));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void a_rate_limit_is_retriable_and_carries_the_wait_the_provider_asked_for(LlmWire wire) throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.replyRateLimited(7);

            ToolException failure = catchThrowableOfType(
                    ToolException.class,
                    () -> generate(server).invoke(json("{\"prompt\": \"Hi\"}"), CallContext.of(0)));

            assertThat(failure.retriable()).isTrue();
            Duration expected = switch (wire.provider()) {
                case "ollama", "mistral" -> null; // their references document no such hint
                default -> Duration.ofSeconds(7);
            };
            if (wire.provider().equals("anthropic")) { // retry-after, or the reset time: within a second of 7 s
                assertThat(failure.retryAfter()).isPresent();
                assertThat(failure.retryAfter().get()).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(7));
            } else {
                assertThat(failure.retryAfter().orElse(null)).isEqualTo(expected);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void a_refused_key_names_the_providers_variable_and_never_the_key(LlmWire wire) throws Exception {
        if (wire.provider().equals("ollama")) {
            return; // a local Ollama wants no key
        }
        try (FakeLlmServer server = FakeLlmServer.start(wire, "the-right-key-0123456789")) {
            Map<String, String> env = new HashMap<>(wire.environment(server.origin(), "a-wrong-key-9876543210"));

            ToolException failure = catchThrowableOfType(
                    ToolException.class,
                    () -> ((LlmGenerateTool) new LlmToolProvider().tools(env).get(0))
                            .invoke(json("{\"prompt\": \"Hi\"}"), CallContext.of(0)));

            assertThat(failure.retriable()).isFalse();
            LlmProvider provider = LlmProvider.byId(wire.provider()).orElseThrow();
            assertThat(failure.getMessage()).doesNotContain("a-wrong-key-9876543210");
            if (!wire.provider().equals("gemini")) { // Gemini refuses a key with 400 INVALID_ARGUMENT
                assertThat(failure.getMessage())
                        .contains(provider.keyVariables().get(0));
            } else {
                assertThat(failure.getMessage()).contains("API key not valid");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void a_rate_limited_stream_carries_the_wait_too(LlmWire wire) throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.replyRateLimited(7);
            PlannerTool planner = (PlannerTool) tools(server).get(1);

            ToolException failure = catchThrowableOfType(
                    ToolException.class,
                    () -> planner.invoke(
                            json("{\"messages\": [{\"role\": \"user\", \"content\": \"plan\"}], \"stream\": true}"),
                            CallContext.of(0)));

            assertThat(failure.retriable()).isTrue();
            boolean hinted =
                    !wire.provider().equals("ollama") && !wire.provider().equals("mistral");
            assertThat(failure.retryAfter().isPresent()).isEqualTo(hinted);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wires")
    void a_streamed_answer_is_read_up_to_the_size_cap_only(LlmWire wire) throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(wire)) {
            server.replyStreamed("x".repeat(64 * 1024), 512, Duration.ZERO);
            Map<String, String> env = new HashMap<>(server.environment());
            env.put("PLANVM_LLM_MAX_RESPONSE_BYTES", "16KiB");
            PlannerTool planner = (PlannerTool) new LlmToolProvider().tools(env).get(1);

            ToolException failure = catchThrowableOfType(
                    ToolException.class,
                    () -> planner.invoke(
                            json("{\"messages\": [{\"role\": \"user\", \"content\": \"plan\"}], \"stream\": true}"),
                            CallContext.of(0)));

            assertThat(failure.getMessage()).contains("answered with more than 16 KiB");
            assertThat(failure.retriable()).isFalse();
        }
    }

    @org.junit.jupiter.api.Test
    void anthropic_refuses_a_temperature_above_1_before_sending_anything() throws Exception {
        try (FakeLlmServer server = FakeLlmServer.start(LlmWire.of("anthropic"))) {
            ToolException failure = catchThrowableOfType(
                    ToolException.class,
                    () -> generate(server)
                            .invoke(json("{\"prompt\": \"Hi\", \"temperature\": 1.5}"), CallContext.of(0)));

            assertThat(failure.getMessage()).isEqualTo("anthropic takes a temperature from 0 to 1, not 1.5");
            assertThat(failure.retriable()).isFalse();
            assertThat(server.requests()).isEmpty();
            assertThat(server.refusals()).isEmpty();
        }
    }
}
