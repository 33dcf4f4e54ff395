package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.type;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.RetryAfter;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Faults of an OpenAI-compatible server on 127.0.0.1, through the real langchain4j HTTP path:
 * what a failure says ({@code Retry-After} included) and how the call chain retries it.
 */
class LlmFaultTest {

    private static final String BOOM = "{\"error\": {\"message\": \"boom\"}}";

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final LlmGenerateTool tool =
            new LlmGenerateTool(new LlmConfig(null, server.baseUrl(), "m", Duration.ofSeconds(2)));
    private final List<FailedAttempt> attempts = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void stopServer() {
        server.close();
    }

    private ToolException failure() {
        try {
            tool.invoke(params(), CallContext.of(0));
        } catch (ToolException e) {
            return e;
        }
        throw new AssertionError("the call did not fail");
    }

    private static ObjectNode params() {
        return JsonNodeFactory.instance.objectNode().put("prompt", "p");
    }

    /** The waits between attempts the retry link asked for: recorded, not slept. */
    private final List<Duration> slept = new java.util.concurrent.CopyOnWriteArrayList<>();

    private CallChain chain(RetrySettings settings) {
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(List.of(tool)))
                        .retries(settings)
                        .sleeper(slept::add)
                        .build(),
                null);
    }

    private static RetrySettings fast(int attempts) {
        return RetrySettings.of(new RetryPolicy(attempts, Duration.ofMillis(10), Duration.ofMillis(50)));
    }

    private static Call.ToolCall call() {
        return new Call.ToolCall("llm_generate", params(), CallContext.of(0));
    }

    @Test
    void a_rate_limit_carries_its_retry_after_in_seconds() {
        server.replyStatus(429, BOOM, Map.of("Retry-After", "2"));
        ToolException e = failure();
        assertThat(e.retriable()).isTrue();
        assertThat(e.retryAfter()).contains(Duration.ofSeconds(2));
        assertThat(e.getMessage()).isEqualTo("the LLM server answered HTTP 429: boom");
    }

    @Test
    void retry_after_ms_wins_over_retry_after() {
        server.replyStatus(429, BOOM, Map.of("retry-after-ms", "1500", "Retry-After", "9"));
        assertThat(failure().retryAfter()).contains(Duration.ofMillis(1500));
    }

    @Test
    void a_server_error_with_retry_after_carries_it_too() {
        server.replyStatus(503, BOOM, Map.of("Retry-After", "1"));
        assertThat(failure().retryAfter()).contains(Duration.ofSeconds(1));
    }

    @Test
    void a_client_error_never_carries_a_retry_after_and_a_missing_header_is_empty() {
        server.replyStatus(400, BOOM, Map.of("Retry-After", "1"));
        ToolException badRequest = failure();
        assertThat(badRequest.retriable()).isFalse();
        assertThat(badRequest.retryAfter()).isEmpty();
        assertThat(badRequest.overloaded()).isFalse();
        server.replyStatus(429, BOOM);
        ToolException limited = failure();
        assertThat(limited.retryAfter()).isEmpty();
        assertThat(limited.overloaded())
                .as("a 429 shrinks the LLM's concurrency limit")
                .isTrue();
    }

    @Test
    void retry_after_reads_seconds_dates_and_ignores_what_does_not_parse() {
        Clock clock = Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC);
        assertThat(RetryAfter.from(Map.of("Retry-After", List.of("120")), clock))
                .isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryAfter.from(Map.of("retry-after", List.of("0.5")), clock))
                .isEqualTo(Duration.ofMillis(500));
        assertThat(RetryAfter.from(Map.of("Retry-After", List.of("Wed, 01 Jan 2025 00:00:30 GMT")), clock))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryAfter.from(Map.of("Retry-After", List.of("Tue, 31 Dec 2024 23:00:00 GMT")), clock))
                .isEqualTo(Duration.ZERO);
        assertThat(RetryAfter.from(Map.of("Retry-After", List.of("soon")), clock))
                .isNull();
        assertThat(RetryAfter.from(Map.of("Retry-After", List.of("-3")), clock)).isNull();
        assertThat(RetryAfter.from(Map.of(), clock)).isNull();
    }

    @Test
    void a_rate_limit_is_retried_after_the_wait_the_server_asks_for() {
        server.replyStatus(429, BOOM, Map.of("Retry-After", "1")).reply("hello");
        assertThat(chain(fast(3)).execute(call(), attempts::add).asText()).isEqualTo("hello");
        assertThat(slept).as("the waits asked for").containsExactly(Duration.ofSeconds(1));
        assertThat(attempts).singleElement().satisfies(a -> {
            assertThat(a.nextWait()).isEqualTo(Duration.ofSeconds(1));
            assertThat(a.failure().getMessage()).contains("HTTP 429");
        });
    }

    @Test
    void a_burst_of_server_errors_is_retried_until_an_answer() {
        server.replyStatus(500, BOOM)
                .replyStatus(502, BOOM)
                .replyStatus(503, BOOM)
                .reply("finally");
        assertThat(chain(fast(4)).execute(call(), attempts::add).asText()).isEqualTo("finally");
        assertThat(server.requestCount()).isEqualTo(4);
        assertThat(attempts).extracting(FailedAttempt::number).containsExactly(1, 2, 3);
    }

    @Test
    void a_burst_longer_than_the_limit_fails_naming_the_attempts() {
        server.replyStatus(500, BOOM)
                .replyStatus(500, BOOM)
                .replyStatus(500, BOOM)
                .reply("too late");
        assertThatThrownBy(() -> chain(fast(3)).execute(call(), attempts::add))
                .hasMessage("the LLM server answered HTTP 500: boom (after 3 attempts)")
                .asInstanceOf(type(ToolException.class))
                .returns(true, ToolException::retriable);
        assertThat(server.remainingReplies()).isEqualTo(1);
    }

    @Test
    void a_closed_connection_is_retried_on_a_new_one() {
        server.closeConnection().reply("reconnected");
        assertThat(chain(fast(2)).execute(call(), attempts::add).asText()).isEqualTo("reconnected");
        assertThat(attempts)
                .singleElement()
                .satisfies(a -> assertThat(a.failure().getMessage()).contains("closed the connection"));
    }

    @Test
    void a_reply_slower_than_the_call_timeout_is_abandoned_and_retried() {
        server.replyAfter(Duration.ofSeconds(5), "too late").reply("in time");
        RetrySettings settings = new RetrySettings(
                new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(10)),
                Map.of(),
                Duration.ofMillis(300),
                Map.of(),
                RetrySettings.DEFAULT_MAX_RETRY_AFTER);
        assertThat(chain(settings).execute(call(), attempts::add).asText())
                .as("the retry answered: the slow reply was not waited for")
                .isEqualTo("in time");
        assertThat(attempts)
                .singleElement()
                .satisfies(a -> assertThat(a.failure().getMessage()).endsWith("timed out after 0.3 s"));
    }
}
