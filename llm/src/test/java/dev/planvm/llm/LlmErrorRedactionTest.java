package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A server that echoes the API key in an error body never gets it, or a part of it, into the
 * message: the body is redacted before it is cut to length, whatever the key looks like.
 */
class LlmErrorRedactionTest {

    /** Not an {@code sk-} key, so only the configured key itself can be recognised. */
    private static final String KEY = "gsk_live_7Q2pX9rT4vB8nM3kL6wZ1yH5";

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final LlmGenerateTool tool =
            new LlmGenerateTool(new LlmConfig(KEY, server.baseUrl(), "m", Duration.ofSeconds(2)));

    @AfterEach
    void stopServer() {
        server.close();
    }

    private String failure() {
        try {
            tool.invoke(JsonNodeFactory.instance.objectNode().put("prompt", "p"), CallContext.of(0));
        } catch (ToolException e) {
            return e.getMessage();
        }
        throw new AssertionError("the call did not fail");
    }

    @Test
    void a_key_echoed_where_the_message_is_cut_leaves_no_prefix_of_it() {
        String padding = "x".repeat(175);
        server.replyStatus(401, "{\"error\": {\"message\": \"" + padding + " key " + KEY + " is not valid\"}}");

        String message = failure();

        assertThat(message).startsWith("the LLM server answered HTTP 401: xxx").doesNotContain(KEY.substring(0, 8));
    }

    @Test
    void a_key_echoed_in_a_body_that_is_not_json_leaves_no_prefix_of_it() {
        server.replyStatus(500, "Internal error. ".repeat(10) + "Authorization: Bearer " + KEY + " rejected");

        String message = failure();

        assertThat(message)
                .startsWith("the LLM server answered HTTP 500: Internal error.")
                .doesNotContain(KEY.substring(0, 8));
    }
}
