package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LlmConditionEvaluatorTest {

    private static final CallContext CALL = CallContext.of(4);
    private static final String PROMPT = "Is the answer complete?";

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final LlmConditionEvaluator evaluator = new LlmConditionEvaluator(
            new LlmConfig("sk-test-0123456789abcdef", server.baseUrl(), "test-model", Duration.ofSeconds(2)));

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void reads_a_clean_answer() {
        server.reply("{\"result\": true, \"explanation\": \"It covers every point.\"}");

        assertThat(evaluate()).isEqualTo(new ConditionResult(true, "It covers every point."));
    }

    @Test
    void reads_an_answer_inside_prose() {
        server.reply("Sure. {\"result\": false, \"explanation\": \"A step is missing.\"} Hope this helps.");

        assertThat(evaluate()).isEqualTo(new ConditionResult(false, "A step is missing."));
    }

    @Test
    void reads_an_answer_inside_a_json_fence() {
        server.reply("```json\n{\"result\": true, \"explanation\": \"Done.\"}\n```");

        assertThat(evaluate()).isEqualTo(new ConditionResult(true, "Done."));
    }

    @Test
    void accepts_the_result_as_the_string_false() {
        server.reply("{\"result\": \"false\", \"explanation\": \"No.\"}");

        assertThat(evaluate()).isEqualTo(new ConditionResult(false, "No."));
    }

    @Test
    void reads_a_missing_explanation_as_empty() {
        server.reply("{\"result\": true}");

        assertThat(evaluate()).isEqualTo(new ConditionResult(true, ""));
    }

    @Test
    void asks_for_json_mode() {
        server.reply("{\"result\": true, \"explanation\": \"ok\"}");

        evaluate();

        assertThat(server.requests().get(0).path("response_format").path("type").asText())
                .isEqualTo("json_object");
    }

    @Test
    void states_the_answer_format_in_a_system_message() {
        server.reply("{\"result\": true, \"explanation\": \"ok\"}");

        evaluate();

        assertThat(message(0, 0).path("role").asText()).isEqualTo("system");
        assertThat(message(0, 0).path("content").asText())
                .contains("{\"result\": true or false, \"explanation\": \"one or two sentences\"}");
    }

    @Test
    void sends_the_context_after_the_prompt() {
        server.reply("{\"result\": true, \"explanation\": \"ok\"}");

        evaluator.evaluate(PROMPT, TextNode.valueOf("the draft"), CALL);

        assertThat(message(0, 1).path("content").asText()).isEqualTo(PROMPT + "\n\nContext:\nthe draft");
    }

    @Test
    void sends_a_json_context_compactly() {
        server.reply("{\"result\": true, \"explanation\": \"ok\"}");

        evaluator.evaluate(PROMPT, JsonNodeFactory.instance.objectNode().put("n", 2), CALL);

        assertThat(message(0, 1).path("content").asText()).isEqualTo(PROMPT + "\n\nContext:\n{\"n\":2}");
    }

    @Test
    void leaves_out_a_null_context() {
        server.reply("{\"result\": true, \"explanation\": \"ok\"}");

        evaluate();

        assertThat(message(0, 1).path("content").asText()).isEqualTo(PROMPT);
    }

    @Test
    void re_asks_after_an_answer_without_json() {
        server.reply("Yes, it is complete.").reply("{\"result\": true, \"explanation\": \"ok\"}");

        ConditionResult result = evaluate();

        assertThat(result).isEqualTo(new ConditionResult(true, "ok"));
        JsonNode retry = server.requests().get(1).path("messages");
        assertThat(retry).hasSize(4);
        assertThat(retry.get(2).path("role").asText()).isEqualTo("assistant");
        assertThat(retry.get(2).path("content").asText()).isEqualTo("Yes, it is complete.");
        assertThat(retry.get(3).path("role").asText()).isEqualTo("user");
        assertThat(retry.get(3).path("content").asText())
                .isEqualTo("Your answer had no JSON object. "
                        + "Reply with only {\"result\": true or false, \"explanation\": \"...\"}.");
    }

    @Test
    void names_a_result_that_is_not_a_boolean_when_re_asking() {
        server.reply("{\"result\": \"maybe\", \"explanation\": \"unsure\"}")
                .reply("{\"result\": false, \"explanation\": \"ok\"}");

        evaluate();

        assertThat(message(1, 3).path("content").asText())
                .startsWith("In your JSON object, 'result' was the string \"maybe\", not true or false.");
    }

    @Test
    void names_a_missing_result_when_re_asking() {
        server.reply("{\"answer\": true}").reply("{\"result\": false, \"explanation\": \"ok\"}");

        evaluate();

        assertThat(message(1, 3).path("content").asText()).startsWith("Your JSON object had no 'result' key.");
    }

    @Test
    void names_a_numeric_result_when_re_asking() {
        server.reply("{\"result\": 1}").reply("{\"result\": false, \"explanation\": \"ok\"}");

        evaluate();

        assertThat(message(1, 3).path("content").asText())
                .startsWith("In your JSON object, 'result' was 1, not true or false.");
    }

    @Test
    void fails_after_three_unusable_answers_quoting_the_last() {
        server.reply("no").reply("still no").reply("I refuse");

        assertThatThrownBy(this::evaluate)
                .hasMessage("the LLM gave no usable {\"result\", \"explanation\"} answer in 3 tries; "
                        + "last answer: \"I refuse\"")
                .asInstanceOf(type(ToolException.class))
                .returns(false, ToolException::retriable);
        assertThat(server.requestCount()).isEqualTo(3);
    }

    @Test
    void shortens_a_long_last_answer_in_the_failure() {
        server.reply("no").reply("no").reply("x".repeat(1000));

        assertThatThrownBy(this::evaluate).message().hasSizeLessThan(320).contains("xxxx…\"");
    }

    @Test
    void a_server_error_is_retriable() {
        server.replyStatus(500, "{\"error\": {\"message\": \"boom\"}}");

        assertThatThrownBy(this::evaluate)
                .hasMessage("the LLM server answered HTTP 500: boom")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    @Test
    void an_unauthorized_answer_is_not_retriable() {
        server.replyStatus(401, "{\"error\": {\"message\": \"bad key\"}}");

        assertThatThrownBy(this::evaluate)
                .asInstanceOf(type(ToolException.class))
                .returns(false, ToolException::retriable);
    }

    @Test
    void a_transport_failure_during_a_re_ask_is_not_hidden() {
        server.reply("no json").replyStatus(503, "{\"error\": {\"message\": \"overloaded\"}}");

        assertThatThrownBy(this::evaluate)
                .hasMessage("the LLM server answered HTTP 503: overloaded")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
    }

    private ConditionResult evaluate() {
        return evaluator.evaluate(PROMPT, NullNode.getInstance(), CALL);
    }

    private JsonNode message(int request, int index) {
        return server.requests().get(request).path("messages").get(index);
    }
}
