package dev.planvm.tools.chain.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallListener;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The retry link: Retry-After, per-tool policies, and the failed attempts it reports to listeners. */
class RetryLinkTest {

    private static final RetryPolicy THREE = new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1));

    private final List<Duration> waits = new ArrayList<>();
    private final AttemptsSeen log = new AttemptsSeen();

    /** A tool that throws each given failure in turn, then answers "ok". */
    private static Tool scripted(String name, AtomicInteger calls, ToolException... failures) {
        Iterator<ToolException> script = List.of(failures).iterator();
        return Tool.of(name, "", (p, c) -> {
            calls.incrementAndGet();
            if (script.hasNext()) {
                throw script.next();
            }
            return TextNode.valueOf("ok");
        });
    }

    private CallChain chain(Tool tool, RetrySettings settings) {
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(List.of(tool)))
                        .retries(settings)
                        .sleeper(waits::add)
                        .listener(log)
                        .build(),
                null);
    }

    private static Call.ToolCall call(String tool) {
        return new Call.ToolCall(tool, JsonNodeFactory.instance.objectNode().put("q", 1), CallContext.of(7));
    }

    @Test
    void a_retry_after_longer_than_the_backoff_is_waited_for() {
        AtomicInteger calls = new AtomicInteger();
        Tool limited = scripted("limited", calls, ToolException.retryAfter("HTTP 429", Duration.ofSeconds(2)));
        assertThat(chain(limited, RetrySettings.of(THREE))
                        .execute(call("limited"))
                        .asText())
                .isEqualTo("ok");
        assertThat(waits).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void a_retry_after_shorter_than_the_backoff_leaves_the_backoff() {
        AtomicInteger calls = new AtomicInteger();
        Tool limited = scripted("limited", calls, ToolException.retryAfter("HTTP 429", Duration.ofMillis(1)));
        chain(limited, RetrySettings.of(THREE)).execute(call("limited"));
        assertThat(waits)
                .singleElement()
                .satisfies(w -> assertThat(w).isBetween(Duration.ofMillis(50), Duration.ofMillis(100)));
    }

    @Test
    void a_retry_after_beyond_the_maximum_fails_at_once_and_says_why() {
        AtomicInteger calls = new AtomicInteger();
        Tool limited =
                scripted("limited", calls, ToolException.retryAfter("HTTP 429: quota", Duration.ofSeconds(3600)));
        RetrySettings settings = new RetrySettings(THREE, Map.of(), null, Map.of(), Duration.ofSeconds(60));
        assertThatThrownBy(() -> chain(limited, settings).execute(call("limited")))
                .hasMessage(
                        "HTTP 429: quota (the server asks to wait 3600 s before retrying, more than the 60 s planvm waits)");
        assertThat(calls).hasValue(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void a_tool_with_its_own_policy_is_retried_by_it_and_others_by_the_default() {
        AtomicInteger llmCalls = new AtomicInteger();
        Tool llm = scripted(
                "llm_generate",
                llmCalls,
                ToolException.transientFailure("HTTP 500", null),
                ToolException.transientFailure("HTTP 500", null),
                ToolException.transientFailure("HTTP 500", null),
                ToolException.transientFailure("HTTP 500", null));
        RetrySettings settings = new RetrySettings(
                RetryPolicy.NONE,
                Map.of("llm_generate", THREE.withMaxAttempts(5)),
                null,
                Map.of(),
                RetrySettings.DEFAULT_MAX_RETRY_AFTER);
        assertThat(chain(llm, settings).execute(call("llm_generate")).asText()).isEqualTo("ok");
        assertThat(llmCalls).hasValue(5);

        AtomicInteger otherCalls = new AtomicInteger();
        Tool other = scripted("other", otherCalls, ToolException.transientFailure("HTTP 500", null));
        assertThatThrownBy(() -> chain(other, settings).execute(call("other"))).hasMessage("HTTP 500");
        assertThat(otherCalls).hasValue(1);
    }

    @Test
    void every_failed_attempt_of_a_retried_call_reaches_the_listeners_with_its_wait() {
        AtomicInteger calls = new AtomicInteger();
        Tool flaky = scripted(
                "flaky",
                calls,
                ToolException.transientFailure("HTTP 500: boom", null),
                ToolException.retryAfter("HTTP 429", Duration.ofMillis(700)));
        chain(flaky, RetrySettings.of(THREE)).execute(call("flaky"));
        List<FailedAttempt> attempts = log.take(call("flaky"));
        assertThat(attempts).extracting(FailedAttempt::number).containsExactly(1, 2);
        assertThat(attempts).extracting(a -> a.failure().getMessage()).containsExactly("HTTP 500: boom", "HTTP 429");
        assertThat(attempts).extracting(FailedAttempt::nextWait).containsExactlyElementsOf(waits);
        assertThat(attempts.get(1).nextWait()).isEqualTo(Duration.ofMillis(700));
        assertThat(log.take(call("flaky"))).as("taken once").isEmpty();
    }

    @Test
    void the_last_failed_attempt_is_reported_without_a_wait_and_the_message_counts_attempts() {
        AtomicInteger calls = new AtomicInteger();
        ToolException down = ToolException.transientFailure("HTTP 503", null);
        Tool broken = scripted("broken", calls, down, down, down);
        assertThatThrownBy(() -> chain(broken, RetrySettings.of(THREE)).execute(call("broken")))
                .hasMessage("HTTP 503 (after 3 attempts)");
        List<FailedAttempt> attempts = log.take(call("broken"));
        assertThat(attempts).hasSize(3);
        assertThat(attempts.get(2).nextWait()).isNull();
        assertThat(attempts.get(2).toJson().has("waited_ms")).isFalse();
        assertThat(attempts.get(0).toJson().get("waited_ms").asLong())
                .isEqualTo(waits.get(0).toMillis());
        assertThat(attempts.get(0).toJson().get("error").asText()).isEqualTo("HTTP 503");
    }

    @Test
    void a_call_that_fails_at_its_only_attempt_reports_no_attempts() {
        AtomicInteger calls = new AtomicInteger();
        Tool refusing = scripted("refusing", calls, ToolException.permanent("HTTP 401"));
        assertThatThrownBy(() -> chain(refusing, RetrySettings.of(THREE)).execute(call("refusing")))
                .hasMessage("HTTP 401");
        assertThat(log.take(call("refusing"))).isEmpty();
    }

    @Test
    void each_execution_hears_only_its_own_failed_attempts() {
        AtomicInteger calls = new AtomicInteger();
        CallChain chain =
                chain(scripted("t", calls, ToolException.transientFailure("a", null)), RetrySettings.of(THREE));
        List<FailedAttempt> first = new ArrayList<>();
        List<FailedAttempt> second = new ArrayList<>();
        chain.execute(call("t"), first::add);
        chain.execute(
                new Call.ToolCall("t", JsonNodeFactory.instance.objectNode().put("q", 2), CallContext.of(7)),
                second::add);
        assertThat(first)
                .singleElement()
                .extracting(a -> a.failure().getMessage())
                .isEqualTo("a");
        assertThat(second).isEmpty();
    }

    @Test
    void backoff_never_overflows_with_large_attempts_or_waits() {
        RetryPolicy huge = new RetryPolicy(100, Duration.ofDays(1), Duration.ofDays(2));
        assertThat(huge.backoff(90, 0.999)).isBetween(Duration.ofDays(1), Duration.ofDays(2));
        assertThat(THREE.withInitialBackoff(Duration.ofSeconds(5)).maxBackoff()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void a_listener_sees_attempts_of_conditions_too() {
        List<String> events = new CopyOnWriteArrayList<>();
        AtomicInteger asked = new AtomicInteger();
        CallChain chain = CallChains.standard(
                CallChains.parts(ToolRegistry.of(List.of()))
                        .conditions((prompt, context, c) -> {
                            if (asked.incrementAndGet() == 1) {
                                throw ToolException.transientFailure("timeout", null);
                            }
                            return new ConditionResult(true, "yes");
                        })
                        .retries(RetrySettings.of(THREE))
                        .sleeper(waits::add)
                        .listener(new CallListener() {
                            @Override
                            public void attemptFailed(Call call, FailedAttempt attempt) {
                                events.add(call.describe() + " " + attempt.number() + " "
                                        + attempt.failure().getMessage());
                            }
                        })
                        .build(),
                null);
        JsonNode answer =
                chain.execute(new Call.ConditionCall("?", JsonNodeFactory.instance.nullNode(), CallContext.of(2)));
        assertThat(answer.get("result").asBoolean()).isTrue();
        assertThat(events).containsExactly("condition 1 timeout");
    }
}
