package dev.planvm.tools.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.CallListener;
import dev.planvm.tools.call.GuardedListeners;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class CallChainTest {

    private final List<Duration> waits = new ArrayList<>();
    private final RetrySettings retry =
            RetrySettings.of(new RetryPolicy(3, Duration.ofMillis(100), Duration.ofSeconds(1)));

    private static Call.ToolCall call(String tool, List<String> expectedKeys) {
        return new Call.ToolCall(
                tool, JsonNodeFactory.instance.objectNode().put("q", "x"), new CallContext(4, expectedKeys));
    }

    private CallChain chain(Tool tool, CallInterceptor dryRun, List<CallListener> listeners) {
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(List.of(tool)))
                        .conditions((prompt, context, c) -> new ConditionResult(prompt.contains("yes"), "because"))
                        .retries(retry)
                        .sleeper(waits::add)
                        .listeners(listeners)
                        .build(),
                dryRun);
    }

    @Test
    void links_run_in_the_order_they_are_given_and_the_last_answers() {
        List<String> order = new ArrayList<>();
        CallInterceptor first = chain -> {
            order.add("first");
            return chain.proceed(chain.call());
        };
        CallInterceptor second = chain -> {
            order.add("second");
            return TextNode.valueOf("answered by second");
        };
        JsonNode output = new CallChain(List.of(first, second), List.of()).execute(call("t", List.of()));
        assertThat(order).containsExactly("first", "second");
        assertThat(output.asText()).isEqualTo("answered by second");
    }

    @Test
    void listeners_hear_what_a_call_reports_after_the_calls_own_events_and_for_the_call_they_saw_start() {
        List<String> heard = new ArrayList<>();
        CallEvents own = new CallEvents() {
            @Override
            public void tokens(TokenCount tokens) {
                heard.add("own tokens " + tokens.total());
            }

            @Override
            public void chunk(String text) {
                heard.add("own chunk " + text);
            }
        };
        Call.ToolCall call =
                new Call.ToolCall("t", JsonNodeFactory.instance.objectNode(), new CallContext(4, List.of(), own));
        CallListener listener = new CallListener() {
            @Override
            public void tokens(Call seen, TokenCount tokens) {
                heard.add((seen == call) + " tokens " + tokens.total());
            }

            @Override
            public void streamStarted(Call seen) {
                heard.add((seen == call) + " stream");
            }

            @Override
            public void chunk(Call seen, String text) {
                heard.add((seen == call) + " chunk " + text);
            }
        };
        CallInterceptor reporting = chain -> {
            chain.call().context().events().tokens(new TokenCount(2, 1));
            chain.call().context().events().streamStarted();
            chain.call().context().events().chunk("hi");
            return TextNode.valueOf("hi");
        };

        new CallChain(List.of(reporting), List.of(listener)).execute(call);

        assertThat(heard)
                .containsExactly("own tokens 3", "true tokens 3", "true stream", "own chunk hi", "true chunk hi");
    }

    @Test
    void listeners_hear_of_a_failed_attempt_for_the_call_they_saw_start_even_when_a_link_passes_on_a_copy() {
        List<Call> started = new ArrayList<>();
        List<Call> failedFor = new ArrayList<>();
        CallListener listener = new CallListener() {
            @Override
            public void callStarted(Call call) {
                started.add(call);
            }

            @Override
            public void attemptFailed(Call call, dev.planvm.tools.call.FailedAttempt attempt) {
                failedFor.add(call);
            }
        };
        CallInterceptor copying = chain -> chain.proceed(call("t", List.of("copy")));
        CallInterceptor failingOnce = new CallInterceptor() {
            private boolean failed;

            @Override
            public JsonNode intercept(Chain chain) {
                if (!failed) {
                    failed = true;
                    chain.attemptFailed(new dev.planvm.tools.call.FailedAttempt(
                            1, new ToolException("busy", true), Duration.ZERO, Duration.ZERO));
                }
                return TextNode.valueOf("ok");
            }
        };
        new CallChain(List.of(copying, failingOnce), List.of(listener)).execute(call("t", List.of()));
        assertThat(failedFor).hasSize(1);
        assertThat(failedFor.get(0)).isSameAs(started.get(0));
    }

    @Test
    void listeners_hear_of_a_call_abandoned_by_an_unchecked_exception_not_of_a_failure() {
        List<String> heard = new ArrayList<>();
        CallListener listener = new CallListener() {
            @Override
            public void callFailed(Call call, ToolException failure, long durationNanos) {
                heard.add("failed");
            }

            @Override
            public void callAbandoned(Call call, Throwable cause) {
                heard.add("abandoned: " + cause.getMessage());
            }
        };
        CallInterceptor throwing = chain -> {
            throw new IllegalStateException("waits for a reviewer");
        };
        CallChain chain = new CallChain(List.of(throwing), List.of(listener));

        assertThatThrownBy(() -> chain.execute(call("t", List.of()))).isInstanceOf(IllegalStateException.class);
        assertThat(heard).containsExactly("abandoned: waits for a reviewer");
    }

    @Test
    void a_retriable_failure_is_retried_with_growing_waits_until_it_succeeds() {
        AtomicInteger attempts = new AtomicInteger();
        Tool flaky = Tool.of("flaky", "", (p, c) -> {
            if (attempts.incrementAndGet() < 3) {
                throw ToolException.transientFailure("HTTP 503", null);
            }
            return TextNode.valueOf("ok");
        });
        assertThat(chain(flaky, null, List.of())
                        .execute(call("flaky", List.of()))
                        .asText())
                .isEqualTo("ok");
        assertThat(attempts).hasValue(3);
        assertThat(waits).hasSize(2);
        assertThat(waits.get(0)).isBetween(Duration.ofMillis(50), Duration.ofMillis(100));
        assertThat(waits.get(1)).isBetween(Duration.ofMillis(100), Duration.ofMillis(200));
    }

    @Test
    void retries_stop_at_the_limit_and_say_how_many_attempts_were_made() {
        AtomicInteger attempts = new AtomicInteger();
        Tool down = Tool.of("down", "", (p, c) -> {
            attempts.incrementAndGet();
            throw ToolException.transientFailure("HTTP 500", null);
        });
        assertThatThrownBy(() -> chain(down, null, List.of()).execute(call("down", List.of())))
                .isInstanceOf(ToolException.class)
                .hasMessage("HTTP 500 (after 3 attempts)");
        assertThat(attempts).hasValue(3);
    }

    @Test
    void a_non_retriable_failure_fails_at_once() {
        AtomicInteger attempts = new AtomicInteger();
        Tool refusing = Tool.of("refusing", "", (p, c) -> {
            attempts.incrementAndGet();
            throw ToolException.permanent("HTTP 401: bad key");
        });
        assertThatThrownBy(() -> chain(refusing, null, List.of()).execute(call("refusing", List.of())))
                .hasMessage("HTTP 401: bad key");
        assertThat(attempts).hasValue(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void a_tool_that_throws_a_plain_exception_fails_the_call_cleanly() {
        Tool buggy = Tool.of("buggy", "", (p, c) -> {
            throw new IllegalStateException("oops");
        });
        assertThatThrownBy(() -> chain(buggy, null, List.of()).execute(call("buggy", List.of())))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessageContaining("tool 'buggy' failed unexpectedly")
                .hasMessageContaining("oops");
    }

    @Test
    void a_dry_run_calls_nothing_and_shapes_placeholders_by_the_expected_keys() {
        AtomicInteger calls = new AtomicInteger();
        Tool counted = Tool.of("search", "", (p, c) -> {
            calls.incrementAndGet();
            return TextNode.valueOf("real");
        });
        CallChain dry = chain(counted, CallChains.dryRun(true), List.of());
        assertThat(dry.execute(call("search", List.of())).asText()).isEqualTo("<dry-run seq_no 4 search>");
        JsonNode object = dry.execute(call("search", List.of("summary", "insights")));
        assertThat(object.get("summary").asText()).isEqualTo("<dry-run seq_no 4 search.summary>");
        assertThat(object.get("insights").asText()).startsWith(CallChains.DRY_RUN_PLACEHOLDER_PREFIX);
        JsonNode condition = dry.execute(new Call.ConditionCall("no", NullNode.getInstance(), CallContext.of(4)));
        assertThat(condition.get("result").asBoolean()).isTrue();
        assertThat(calls).hasValue(0);
    }

    @Test
    void conditions_pass_through_the_same_chain_to_the_evaluator() {
        List<Call> seen = new ArrayList<>();
        CallChain chain = chain(Tool.of("t", "", (p, c) -> p), null, List.of(new CallListener() {
            @Override
            public void callStarted(Call call) {
                seen.add(call);
            }
        }));
        JsonNode answer = chain.execute(new Call.ConditionCall("say yes", NullNode.getInstance(), CallContext.of(2)));
        assertThat(ConditionResult.fromJson(answer)).isEqualTo(new ConditionResult(true, "because"));
        assertThat(seen).singleElement().isInstanceOf(Call.ConditionCall.class);
    }

    @Test
    void a_listener_that_throws_is_logged_once_with_its_class_and_event_and_still_told_every_event() {
        Logger logger = (Logger) LoggerFactory.getLogger(GuardedListeners.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        List<String> told = new ArrayList<>();
        CallListener throwing = new CallListener() {
            @Override
            public void callStarted(Call call) {
                told.add("started");
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void callFinished(Call call, JsonNode output, long durationNanos) {
                told.add("finished");
                throw new IllegalStateException("another bug");
            }
        };
        try {
            CallChain chain = chain(Tool.of("echo", "", (p, c) -> TextNode.valueOf("yes")), null, List.of(throwing));
            assertThat(chain.execute(call("echo", List.of())).asText()).isEqualTo("yes");
            assertThat(chain.execute(call("echo", List.of())).asText()).isEqualTo("yes");
        } finally {
            logger.detachAppender(logged);
        }
        assertThat(told).containsExactly("started", "finished", "started", "finished");
        assertThat(logged.list).hasSize(1);
        assertThat(logged.list.get(0).getFormattedMessage())
                .contains(throwing.getClass().getName())
                .contains("callStarted")
                .contains("listener bug");
    }

    @Test
    void listeners_observe_success_and_failure_and_one_that_throws_is_ignored() {
        List<String> events = new ArrayList<>();
        CallListener recording = new CallListener() {
            @Override
            public void callFinished(Call call, JsonNode output, long durationNanos) {
                events.add("finished " + output.asText());
            }

            @Override
            public void callFailed(Call call, ToolException failure, long durationNanos) {
                events.add("failed " + failure.getMessage());
            }
        };
        CallListener throwing = new CallListener() {
            @Override
            public void callStarted(Call call) {
                throw new IllegalStateException("listener bug");
            }
        };
        Tool echo = Tool.of("echo", "", (p, c) -> {
            if (p.path("q").asText().equals("fail")) {
                throw ToolException.permanent("no");
            }
            return TextNode.valueOf("yes");
        });
        CallChain chain = chain(echo, null, List.of(throwing, recording));
        chain.execute(call("echo", List.of()));
        assertThatThrownBy(() -> chain.execute(new Call.ToolCall(
                        "echo", JsonNodeFactory.instance.objectNode().put("q", "fail"), CallContext.of(1))))
                .isInstanceOf(ToolException.class);
        assertThat(events).containsExactly("finished yes", "failed no");
    }

    @Test
    void params_are_checked_against_the_tool_schema_before_the_call() {
        AtomicInteger calls = new AtomicInteger();
        Tool strictTool = Tool.of(
                "strict",
                "",
                JsonNodeFactory.instance
                        .objectNode()
                        .put("type", "object")
                        .set("required", JsonNodeFactory.instance.arrayNode().add("query")),
                (p, c) -> {
                    calls.incrementAndGet();
                    return p;
                });
        assertThatThrownBy(() -> chain(strictTool, null, List.of()).execute(call("strict", List.of())))
                .hasMessageContaining("params do not fit the schema of tool 'strict'")
                .hasMessageContaining("query");
        assertThat(calls).hasValue(0);
    }

    @Test
    void a_link_put_in_front_runs_first_and_a_chain_without_listeners_tells_nobody() {
        List<String> order = new ArrayList<>();
        List<Long> durations = new ArrayList<>();
        CallListener timing = new CallListener() {
            @Override
            public void callFinished(Call call, JsonNode output, long durationNanos) {
                durations.add(durationNanos);
            }
        };
        CallInterceptor last = chain -> {
            order.add("last");
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return TextNode.valueOf("answer");
        };
        CallChain chain = new CallChain(List.of(last), List.of(timing));
        CallChain fronted = chain.withFront(c -> {
            order.add("front");
            return c.proceed(c.call());
        });
        assertThat(fronted.execute(call("t", List.of())).asText()).isEqualTo("answer");
        assertThat(order).containsExactly("front", "last");
        assertThat(durations).singleElement().satisfies(d -> assertThat(d).isBetween(15_000_000L, 5_000_000_000L));
        fronted.withoutListeners().execute(call("t", List.of()));
        assertThat(durations).as("nobody was told").hasSize(1);
    }
}
