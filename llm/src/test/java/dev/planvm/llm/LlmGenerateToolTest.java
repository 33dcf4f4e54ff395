package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.chain.CallChains;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LlmGenerateToolTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String KEY = "sk-test-0123456789abcdef";
    private static final CallContext WHOLE = CallContext.of(3);
    private static final CallContext TWO_KEYS = new CallContext(3, List.of("summary", "insights"));

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final LlmGenerateTool tool = new LlmGenerateTool(config(Duration.ofSeconds(2)));

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void returns_the_answer_as_text_when_no_keys_are_expected() {
        server.reply("TiDB is a distributed SQL database.");

        JsonNode output = tool.invoke(params("{\"prompt\": \"What is TiDB?\"}"), WHOLE);

        assertThat(output.isTextual()).isTrue();
        assertThat(output.asText()).isEqualTo("TiDB is a distributed SQL database.");
    }

    @Test
    void sends_the_prompt_and_a_text_context_as_one_user_message() {
        server.reply("ok");

        tool.invoke(params("{\"prompt\": \"Summarize.\", \"context\": \"TiDB docs\"}"), WHOLE);

        assertThat(messages(0)).hasSize(1);
        assertThat(messages(0).get(0).path("role").asText()).isEqualTo("user");
        assertThat(messages(0).get(0).path("content").asText()).isEqualTo("Summarize.\n\nContext:\nTiDB docs");
    }

    @Test
    void sends_a_json_context_compactly() {
        server.reply("ok");

        tool.invoke(params("{\"prompt\": \"Summarize.\", \"context\": {\"a\": [1, 2]}}"), WHOLE);

        assertThat(messages(0).get(0).path("content").asText()).isEqualTo("Summarize.\n\nContext:\n{\"a\":[1,2]}");
    }

    @Test
    void sends_only_the_prompt_when_the_context_is_null() {
        server.reply("ok");

        tool.invoke(params("{\"prompt\": \"Summarize.\", \"context\": null}"), WHOLE);

        assertThat(messages(0).get(0).path("content").asText()).isEqualTo("Summarize.");
    }

    @Test
    void does_not_ask_for_json_when_no_keys_are_expected() {
        server.reply("ok");

        tool.invoke(params("{\"prompt\": \"Summarize.\"}"), WHOLE);

        assertThat(server.requests().get(0).has("response_format")).isFalse();
    }

    @Test
    void does_not_ask_for_json_for_a_single_expected_key() {
        server.reply("ok");

        tool.invoke(params("{\"prompt\": \"Summarize.\"}"), new CallContext(3, List.of("summary")));

        assertThat(server.requests().get(0).has("response_format")).isFalse();
    }

    @Test
    void asks_for_a_json_object_when_two_keys_are_expected() {
        server.reply("{\"summary\": \"s\", \"insights\": \"i\"}");

        tool.invoke(params("{\"prompt\": \"Summarize.\"}"), TWO_KEYS);

        assertThat(server.requests().get(0).path("response_format").path("type").asText())
                .isEqualTo("json_object");
    }

    @Test
    void names_the_expected_keys_in_a_system_message() {
        server.reply("{\"summary\": \"s\", \"insights\": \"i\"}");

        tool.invoke(params("{\"prompt\": \"Summarize.\"}"), TWO_KEYS);

        assertThat(messages(0).get(0).path("role").asText()).isEqualTo("system");
        assertThat(messages(0).get(0).path("content").asText())
                .startsWith("Respond with one JSON object with exactly these keys: summary, insights.");
        assertThat(messages(0).get(1).path("content").asText()).isEqualTo("Summarize.");
    }

    @Test
    void returns_the_object_when_two_keys_are_expected() {
        server.reply("Here it is:\n```json\n{\"summary\": \"s\", \"insights\": [\"i\"]}\n```");

        JsonNode output = tool.invoke(params("{\"prompt\": \"Summarize.\"}"), TWO_KEYS);

        assertThat(output).isEqualTo(json("{\"summary\": \"s\", \"insights\": [\"i\"]}"));
    }

    @Test
    void returns_the_text_when_json_was_asked_for_but_none_came() {
        server.reply("I cannot answer in JSON.");

        JsonNode output = tool.invoke(params("{\"prompt\": \"Summarize.\"}"), TWO_KEYS);

        assertThat(output.asText()).isEqualTo("I cannot answer in JSON.");
    }

    /** A call of the tool through a call chain, whose last link checks the params against the tool's schema. */
    private JsonNode throughChain(JsonNode params) {
        return CallChains.standard(
                        CallChains.parts(ToolRegistry.of(List.of(tool)))
                                .retries(RetrySettings.of(RetryPolicy.NONE))
                                .build(),
                        null)
                .execute(new Call.ToolCall("llm_generate", params, CallContext.of(0)));
    }

    @Test
    void params_need_a_prompt() {
        assertThatThrownBy(() -> throughChain(json("{\"context\": \"x\"}")))
                .isInstanceOf(ToolException.class)
                .hasMessageContaining("prompt");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void params_may_carry_other_properties() {
        server.reply("fine");
        assertThat(throughChain(json("{\"prompt\": \"p\", \"context\": null, \"style\": {\"tone\": \"brief\"}}"))
                        .asText())
                .isEqualTo("fine");
    }

    @ParameterizedTest
    @ValueSource(ints = {429, 500, 502, 503})
    void rate_limits_and_server_errors_are_retriable(int status) {
        server.replyStatus(status, "{\"error\": {\"message\": \"try later\"}}");

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404})
    void client_errors_are_not_retriable(int status) {
        server.replyStatus(status, "{\"error\": {\"message\": \"no\"}}");

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .asInstanceOf(type(ToolException.class))
                .returns(false, ToolException::retriable);
    }

    @Test
    void a_server_error_names_the_status_and_the_error_message() {
        server.replyStatus(500, "{\"error\": {\"message\": \"boom\"}}");

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasMessage("the LLM server answered HTTP 500: boom");
    }

    @Test
    void a_body_that_is_not_json_is_quoted_short() {
        server.replyStatus(502, "<html>" + "bad gateway ".repeat(50) + "</html>");

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .message()
                .startsWith("the LLM server answered HTTP 502: <html>bad gateway")
                .hasSizeLessThan(300);
    }

    @Test
    void langchain4j_does_not_retry_by_itself() {
        server.replyStatus(500, "{\"error\": {\"message\": \"boom\"}}").reply("second");

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .isInstanceOf(ToolException.class);
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_rate_limit_with_retry_after_is_retriable() {
        server.replyStatus(429, "{\"error\": {\"message\": \"slow down\"}}", Map.of("Retry-After", "1"));

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasMessage("the LLM server answered HTTP 429: slow down")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    @Test
    void an_unauthorized_answer_points_at_the_api_key_without_showing_it() {
        server.replyStatus(401, "{\"error\": {\"message\": \"Incorrect API key provided: " + KEY + "\"}}");

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .message()
                .startsWith("the LLM server answered HTTP 401: Incorrect API key provided:")
                .endsWith("(check OPENAI_API_KEY)")
                .doesNotContain(KEY);
    }

    @Test
    void a_failure_whose_cause_echoes_the_api_key_keeps_no_cause() {
        server.replyStatus(401, "{\"error\": {\"message\": \"Incorrect API key provided: " + KEY + "\"}}");

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasNoCause();
    }

    @Test
    void a_reply_slower_than_the_timeout_is_a_retriable_timeout() {
        LlmGenerateTool impatient = new LlmGenerateTool(config(Duration.ofSeconds(1)));
        server.replyAfter(Duration.ofSeconds(2), "late");

        assertThatThrownBy(() -> impatient.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasMessage("the LLM call timed out after 1 s")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    @Test
    void a_closed_connection_is_retriable() {
        server.closeConnection();

        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasMessage("the LLM server at " + server.baseUrl() + " closed the connection without answering")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    @Test
    void an_unreachable_server_is_retriable_and_named() {
        FakeOpenAiServer gone = FakeOpenAiServer.start();
        gone.close();
        LlmGenerateTool unreachable =
                new LlmGenerateTool(new LlmConfig(KEY, gone.baseUrl(), "test-model", Duration.ofSeconds(2)));

        assertThatThrownBy(() -> unreachable.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasMessage("cannot reach the LLM server at " + gone.baseUrl() + ": connection refused")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    @Test
    void a_tool_over_a_bare_chat_model_maps_failures_too() {
        LlmGenerateTool bare = new LlmGenerateTool(config(Duration.ofSeconds(2)).chatModel());
        server.replyStatus(503, "");

        assertThatThrownBy(() -> bare.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasMessage("the LLM server answered HTTP 503")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    @Test
    void an_exhausted_script_reads_as_a_server_error() {
        assertThatThrownBy(() -> tool.invoke(params("{\"prompt\": \"p\"}"), WHOLE))
                .hasMessageContaining("HTTP 500: no scripted reply left");
    }

    private LlmConfig config(Duration timeout) {
        return new LlmConfig(KEY, server.baseUrl(), "test-model", timeout);
    }

    private JsonNode messages(int request) {
        return server.requests().get(request).path("messages");
    }

    private static ObjectNode params(String json) {
        return (ObjectNode) json(json);
    }

    private static JsonNode json(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
