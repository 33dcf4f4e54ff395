package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ToolException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The params of a complete {@code llm_generate} — system, response_format (text, json, a JSON Schema),
 * temperature, max_tokens, model — each checked at the loopback OpenAI-compatible server: what it received, and
 * what the tool made of the answer.
 */
class LlmGenerateParamsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final CallContext WHOLE = CallContext.of(3);

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final LlmGenerateTool tool = new LlmGenerateTool(
            new LlmConfig("sk-test-0123456789abcdef", server.baseUrl(), "test-model", Duration.ofSeconds(5)));

    @AfterEach
    void stopServer() {
        server.close();
    }

    private static ObjectNode params(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private JsonNode request(int i) {
        return server.requests().get(i);
    }

    @Test
    void a_system_message_goes_first() {
        server.reply("Bonjour");
        tool.invoke(params("{\"prompt\": \"Greet.\", \"system\": \"Answer in French.\"}"), WHOLE);
        JsonNode messages = request(0).path("messages");
        assertThat(messages).hasSize(2);
        assertThat(messages.get(0).path("role").asText()).isEqualTo("system");
        assertThat(messages.get(0).path("content").asText()).isEqualTo("Answer in French.");
        assertThat(messages.get(1).path("role").asText()).isEqualTo("user");
    }

    @Test
    void messages_are_sent_as_the_conversation_in_order_ending_on_the_answer_begun() {
        server.reply("Paris.");
        JsonNode answer = tool.invoke(
                params("{\"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"},"
                        + " {\"role\": \"user\", \"content\": \"Capital of France?\"},"
                        + " {\"role\": \"assistant\", \"content\": \"The capital is \"}]}"),
                WHOLE);
        assertThat(answer.asText()).isEqualTo("Paris.");
        JsonNode messages = request(0).path("messages");
        assertThat(messages).hasSize(3);
        assertThat(messages.findValuesAsText("role")).containsExactly("system", "user", "assistant");
        assertThat(messages.get(2).path("content").asText()).isEqualTo("The capital is ");
    }

    @Test
    void stop_texts_reach_the_server_and_neither_prompt_nor_messages_is_refused() {
        server.reply("ok");
        tool.invoke(params("{\"prompt\": \"Hi\", \"stop\": [\"<|END|>\"]}"), WHOLE);
        assertThat(request(0).path("stop").get(0).asText()).isEqualTo("<|END|>");
        assertThatThrownBy(() -> tool.invoke(params("{\"temperature\": 0.2}"), WHOLE))
                .isInstanceOf(ToolException.class)
                .hasMessageContaining("'prompt' or 'messages'");
        assertThatThrownBy(
                        () -> tool.invoke(params("{\"messages\": [{\"role\": \"tool\", \"content\": \"x\"}]}"), WHOLE))
                .isInstanceOf(ToolException.class)
                .hasMessageContaining("messages[0].role");
    }

    @Test
    void temperature_max_tokens_and_model_reach_the_server_and_are_absent_when_not_given() {
        server.reply("ok").reply("ok");
        tool.invoke(
                params("{\"prompt\": \"Hi\", \"temperature\": 0.2, \"max_tokens\": 64, \"model\": \"small\"}"), WHOLE);
        tool.invoke(params("{\"prompt\": \"Hi\"}"), WHOLE);
        JsonNode tuned = request(0);
        assertThat(tuned.path("temperature").asDouble()).isEqualTo(0.2);
        assertThat(
                        tuned.has("max_tokens")
                                ? tuned.path("max_tokens").asInt()
                                : tuned.path("max_completion_tokens").asInt())
                .isEqualTo(64);
        assertThat(tuned.path("model").asText()).isEqualTo("small");
        JsonNode plain = request(1);
        assertThat(plain.has("temperature")).isFalse();
        assertThat(plain.has("max_tokens") || plain.has("max_completion_tokens"))
                .isFalse();
        assertThat(plain.path("model").asText()).isEqualTo("test-model");
    }

    @Test
    void bad_values_are_refused_before_anything_is_sent() {
        for (String bad : List.of(
                "{\"prompt\": \"Hi\", \"temperature\": 3}",
                "{\"prompt\": \"Hi\", \"temperature\": \"warm\"}",
                "{\"prompt\": \"Hi\", \"max_tokens\": 0}",
                "{\"prompt\": \"Hi\", \"max_tokens\": 1.5}",
                "{\"prompt\": \"Hi\", \"model\": \" \"}",
                "{\"prompt\": \"Hi\", \"system\": 7}",
                "{\"prompt\": \"Hi\", \"response_format\": 7}",
                "{\"prompt\": \"Hi\", \"response_format\": {\"$defs\": {\"a\": {\"$ref\": \"#/$defs/a\"}},"
                        + " \"$ref\": \"#/$defs/a\"}}")) {
            assertThatThrownBy(() -> tool.invoke(params(bad), WHOLE))
                    .as(bad)
                    .isInstanceOfSatisfying(
                            ToolException.class, e -> assertThat(e.retriable()).isFalse());
        }
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void json_asks_in_json_mode_and_reads_the_value_the_answer_holds() {
        server.reply("Here it is:\n```json\n{\"city\": \"Oslo\", \"rank\": 1}\n```")
                .reply("42");
        JsonNode object = tool.invoke(params("{\"prompt\": \"Where?\", \"response_format\": \"json\"}"), WHOLE);
        assertThat(object).isEqualTo(params("{\"city\": \"Oslo\", \"rank\": 1}"));
        assertThat(request(0).at("/response_format/type").asText()).isEqualTo("json_object");
        assertThat(tool.invoke(params("{\"prompt\": \"How many?\", \"response_format\": \"json\"}"), WHOLE)
                        .asInt())
                .isEqualTo(42);
    }

    @Test
    void json_without_json_in_the_answer_fails_saying_so() {
        server.reply("I cannot answer that.");
        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"Where?\", \"response_format\": \"json\"}"), WHOLE))
                .isInstanceOf(ToolException.class)
                .hasMessage("response_format is \"json\" but the answer holds no JSON: 'I cannot answer that.'");
    }

    @Test
    void any_other_text_asks_for_text_as_stackvm_does() {
        server.reply("Summary in English.");
        JsonNode answer = tool.invoke(params("{\"prompt\": \"Sum up.\", \"response_format\": \"English\"}"), WHOLE);
        assertThat(answer.asText()).isEqualTo("Summary in English.");
        assertThat(request(0).has("response_format")).isFalse();
    }

    private static final String CITY_SCHEMA =
            "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"},"
                    + " \"population\": {\"type\": \"integer\"}}, \"required\": [\"city\", \"population\"],"
                    + " \"additionalProperties\": false}";

    @Test
    void a_schema_is_sent_as_strict_structured_output_and_a_fitting_answer_is_the_output() {
        server.reply("{\"city\": \"Oslo\", \"population\": 709000}");
        JsonNode answer =
                tool.invoke(params("{\"prompt\": \"Biggest city?\", \"response_format\": " + CITY_SCHEMA + "}"), WHOLE);
        assertThat(answer).isEqualTo(params("{\"city\": \"Oslo\", \"population\": 709000}"));
        JsonNode format = request(0).path("response_format");
        assertThat(format.path("type").asText()).isEqualTo("json_schema");
        assertThat(format.at("/json_schema/strict").asBoolean()).isTrue();
        assertThat(format.at("/json_schema/schema/required")).hasSize(2);
    }

    @Test
    void a_schema_whose_top_level_is_not_an_object_is_sent_wrapped_and_its_value_is_the_output() {
        server.reply("{\"value\": \"bug\"}");
        JsonNode answer = tool.invoke(
                params(
                        "{\"prompt\": \"Kind?\", \"response_format\": {\"type\": \"string\", \"enum\": [\"bug\", \"feature\"]}}"),
                WHOLE);
        assertThat(answer.asText()).isEqualTo("bug");
        JsonNode sent = request(0).at("/response_format/json_schema/schema");
        assertThat(sent.path("type").asText())
                .as("strict mode takes an object only")
                .isEqualTo("object");
        assertThat(sent.at("/properties/value/enum").toString()).isEqualTo("[\"bug\",\"feature\"]");
        assertThat(sent.path("required").toString()).isEqualTo("[\"value\"]");
        server.reply("{\"value\": \"question\"}").reply("{\"value\": \"feature\"}");
        JsonNode again = tool.invoke(
                params(
                        "{\"prompt\": \"Kind?\", \"response_format\": {\"type\": \"string\", \"enum\": [\"bug\", \"feature\"]}}"),
                WHOLE);
        assertThat(again.asText()).as("checked against the schema as given").isEqualTo("feature");
    }

    @Test
    void an_answer_that_does_not_fit_is_asked_for_once_more_with_what_was_wrong() {
        server.reply("{\"city\": \"Oslo\"}").reply("{\"city\": \"Oslo\", \"population\": 709000}");
        JsonNode answer =
                tool.invoke(params("{\"prompt\": \"Biggest city?\", \"response_format\": " + CITY_SCHEMA + "}"), WHOLE);
        assertThat(answer.path("population").asInt()).isEqualTo(709000);
        assertThat(server.requestCount()).isEqualTo(2);
        JsonNode again = request(1).path("messages");
        assertThat(again.get(again.size() - 2).path("role").asText()).isEqualTo("assistant");
        assertThat(again.get(again.size() - 1).path("content").asText())
                .startsWith("That answer does not fit the JSON Schema: ")
                .contains("population");
    }

    @Test
    void an_answer_that_does_not_fit_twice_fails_naming_the_problems() {
        server.reply("{\"city\": 7}").reply("not even JSON");
        assertThatThrownBy(() -> tool.invoke(
                        params("{\"prompt\": \"Biggest city?\", \"response_format\": " + CITY_SCHEMA + "}"), WHOLE))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessage("the answer does not fit response_format, asked twice: it holds no JSON: 'not even JSON'");
        assertThat(server.requestCount()).isEqualTo(2);
    }

    @Test
    void the_names_of_two_output_variables_become_required_keys_of_the_schema() {
        server.reply("{\"summary\": \"s\", \"insights\": [\"i\"]}");
        CallContext twoKeys = new CallContext(3, List.of("summary", "insights"));
        JsonNode answer = tool.invoke(
                params("{\"prompt\": \"Sum up.\", \"response_format\": {\"type\": \"object\", \"properties\":"
                        + " {\"summary\": {\"type\": \"string\"}, \"insights\": {\"type\": \"array\"}}}}"),
                twoKeys);
        assertThat(answer.path("summary").asText()).isEqualTo("s");
        assertThat(request(0).at("/response_format/json_schema/schema/required").toString())
                .isEqualTo("[\"summary\",\"insights\"]");
    }

    @Test
    void a_schema_reference_is_never_fetched() throws IOException {
        AtomicInteger fetched = new AtomicInteger();
        HttpServer elsewhere = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        elsewhere.createContext("/", exchange -> {
            fetched.incrementAndGet();
            byte[] body = "{\"type\": \"string\"}".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        elsewhere.start();
        try {
            String ref = "http://127.0.0.1:" + elsewhere.getAddress().getPort() + "/city.json";
            server.reply("{\"city\": \"Oslo\"}").reply("{\"city\": \"Oslo\"}");
            String schema = "{\"type\": \"object\", \"properties\": {\"city\": {\"$ref\": \"" + ref + "\"}}}";
            try {
                tool.invoke(params("{\"prompt\": \"City?\", \"response_format\": " + schema + "}"), WHOLE);
            } catch (RuntimeException refused) {
                // refusing the schema is as good as not fetching it
            }
            assertThat(fetched).hasValue(0);
        } finally {
            elsewhere.stop(0);
        }
    }

    @Test
    void openais_own_forms_mean_the_same() {
        server.reply("{\"a\": 1}")
                .reply("{\"city\": \"Oslo\", \"population\": 1}")
                .reply("plain");
        assertThat(tool.invoke(params("{\"prompt\": \"p\", \"response_format\": {\"type\": \"json_object\"}}"), WHOLE))
                .isEqualTo(params("{\"a\": 1}"));
        assertThat(tool.invoke(
                                params(
                                        "{\"prompt\": \"p\", \"response_format\": {\"type\": \"json_schema\", \"json_schema\":"
                                                + " {\"name\": \"c\", \"schema\": " + CITY_SCHEMA + "}}}"),
                                WHOLE)
                        .path("population")
                        .asInt())
                .isEqualTo(1);
        assertThat(request(1).at("/response_format/json_schema/strict").asBoolean())
                .isTrue();
        assertThat(tool.invoke(params("{\"prompt\": \"p\", \"response_format\": {\"type\": \"text\"}}"), WHOLE)
                        .asText())
                .isEqualTo("plain");
    }
}
