package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An LLM server's answer is untrusted input: its body is read within the request's timeout (the
 * whole body, not just the headers) and up to a size cap, and a 200 answer that is not JSON is
 * reported as such. Against a real OpenAI-compatible server on 127.0.0.1, through langchain4j.
 */
class LlmBoundsTest {

    /** A deadline that proves a call did not hang: no timing target. */
    private static final Duration NOT_HUNG = Duration.ofSeconds(60);

    private final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    /** {@code llm_generate} configured from the environment: a 1 s timeout and a 1 MiB answer cap. */
    private LlmGenerateTool tool() {
        return new LlmGenerateTool(LlmConfig.fromEnvironment(Map.of(
                        "OPENAI_BASE_URL",
                        server.baseUrl(),
                        "PLANVM_LLM_TIMEOUT_SECONDS",
                        "1",
                        "PLANVM_LLM_MAX_RESPONSE_BYTES",
                        "1MiB"))
                .orElseThrow());
    }

    private ToolException failure(LlmGenerateTool tool) {
        return assertTimeoutPreemptively(NOT_HUNG, () -> {
            try {
                tool.invoke(JsonNodeFactory.instance.objectNode().put("prompt", "p"), CallContext.of(0));
            } catch (ToolException e) {
                return e;
            }
            throw new AssertionError("the call did not fail");
        });
    }

    @Test
    void a_body_that_trickles_after_the_headers_times_out_with_the_request() {
        server.replyTrickling(Duration.ofMillis(500));

        ToolException e = failure(tool());

        assertThat(e.getMessage()).isEqualTo("the LLM call timed out after 1 s");
        assertThat(e.retriable()).isTrue();
    }

    @Test
    void an_answer_larger_than_the_cap_is_refused_without_reading_it_to_the_end() {
        server.replyHuge(64L * 1024 * 1024);

        ToolException e = failure(tool());

        assertThat(e.getMessage())
                .isEqualTo("the LLM server at " + server.baseUrl() + " answered with more than 1 MiB"
                        + " (PLANVM_LLM_MAX_RESPONSE_BYTES); the answer was not read to the end");
        assertThat(e.retriable()).isFalse();
    }

    @Test
    void a_200_answer_that_is_not_json_is_reported_as_such() {
        server.replyStatus(200, "<html><body>Welcome to nginx!</body></html>");

        ToolException e = failure(tool());

        assertThat(e.getMessage())
                .isEqualTo("the LLM server at " + server.baseUrl() + " answered 200 with a body that is"
                        + " not JSON: <html><body>Welcome to nginx!</body></html>");
        assertThat(e.retriable()).isFalse();
    }

    @Test
    void an_answer_within_the_cap_and_the_timeout_is_read() {
        server.replyHuge(512 * 1024);

        String answer = assertTimeoutPreemptively(
                NOT_HUNG,
                () -> tool().invoke(JsonNodeFactory.instance.objectNode().put("prompt", "p"), CallContext.of(0))
                        .asText());

        assertThat(answer).hasSize(512 * 1024);
    }
}
