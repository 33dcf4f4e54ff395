package dev.planvm.tools.chain.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Attempt timeouts: a slow attempt is interrupted and retried; no timeout means no thread hop. */
class TimeoutLinkTest {

    private final List<Duration> waits = new ArrayList<>();
    private final AttemptsSeen log = new AttemptsSeen();

    private CallChain chain(List<Tool> tools, RetrySettings settings, Map<String, Integer> limits) {
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(tools))
                        .retries(settings)
                        .sleeper(waits::add)
                        .toolLimits(limits)
                        .listener(log)
                        .build(),
                null);
    }

    private static RetrySettings timeout(RetryPolicy policy, Duration timeout, Map<String, Duration> perTool) {
        return new RetrySettings(policy, Map.of(), timeout, perTool, RetrySettings.DEFAULT_MAX_RETRY_AFTER);
    }

    private static Call.ToolCall call(String tool) {
        return new Call.ToolCall(tool, JsonNodeFactory.instance.objectNode(), CallContext.of(5));
    }

    /** Sleeps {@code slowFirst} on its first call, answers at once after; records interruption. */
    private static Tool slowOnce(String name, Duration slowFirst, AtomicInteger calls, AtomicBoolean interrupted) {
        return Tool.of(name, "", (p, c) -> {
            if (calls.incrementAndGet() == 1) {
                try {
                    Thread.sleep(slowFirst.toMillis());
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    throw new ToolException("interrupted", false);
                }
            }
            return TextNode.valueOf("fast");
        });
    }

    @Test
    void a_slow_attempt_times_out_as_retriable_is_interrupted_and_the_retry_answers() {
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean interrupted = new AtomicBoolean();
        Tool slow = slowOnce("slow", Duration.ofSeconds(120), calls, interrupted);
        RetrySettings settings = timeout(
                new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(1)), Duration.ofMillis(100), Map.of());
        assertThat(chain(List.of(slow), settings, Map.of())
                        .execute(call("slow"))
                        .asText())
                .isEqualTo("fast");
        assertThat(calls)
                .as("the first attempt was not waited for: the retry answered")
                .hasValue(2);
        assertThat(log.take(call("slow")))
                .singleElement()
                .satisfies(a -> assertThat(a.failure().getMessage()).isEqualTo("the call timed out after 0.1 s"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // not hung: no timing target
        while (!interrupted.get() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(interrupted).as("the timed-out attempt was interrupted").isTrue();
    }

    @Test
    void a_call_that_keeps_timing_out_fails_after_its_attempts() {
        Tool hang = Tool.of("hang", "", (p, c) -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return TextNode.valueOf("never");
        });
        RetrySettings settings =
                timeout(new RetryPolicy(2, Duration.ZERO, Duration.ZERO), Duration.ofMillis(50), Map.of());
        assertThatThrownBy(() -> chain(List.of(hang), settings, Map.of()).execute(call("hang")))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessage("the call timed out after 0.05 s (after 2 attempts)");
    }

    @Test
    void without_a_timeout_the_tool_runs_on_the_calling_thread() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        Tool here = Tool.of("here", "", (p, c) -> {
            ranOn.set(Thread.currentThread());
            return TextNode.valueOf("ok");
        });
        chain(List.of(here), RetrySettings.of(RetryPolicy.NONE), Map.of()).execute(call("here"));
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
    }

    @Test
    void a_tool_timeout_overrides_the_default_and_zero_means_none() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        Tool free = Tool.of("free", "", (p, c) -> {
            ranOn.set(Thread.currentThread());
            return TextNode.valueOf("ok");
        });
        AtomicInteger calls = new AtomicInteger();
        Tool tight = slowOnce("tight", Duration.ofSeconds(5), calls, new AtomicBoolean());
        RetrySettings settings = timeout(
                RetryPolicy.NONE,
                Duration.ofSeconds(30),
                Map.of("free", Duration.ZERO, "tight", Duration.ofMillis(50)));
        CallChain chain = chain(List.of(free, tight), settings, Map.of());
        chain.execute(call("free"));
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
        assertThatThrownBy(() -> chain.execute(call("tight"))).hasMessage("the call timed out after 0.05 s");
    }

    @Test
    void waiting_for_a_tool_concurrency_slot_does_not_count_toward_the_timeout() throws Exception {
        CountDownLatch firstInside = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Tool busy = Tool.of("busy", "", (p, c) -> {
            boolean first = calls.incrementAndGet() == 1;
            if (first) {
                firstInside.countDown();
            }
            try {
                Thread.sleep(first ? 700 : 500);
            } catch (InterruptedException e) {
                throw new ToolException("interrupted", false);
            }
            return TextNode.valueOf("done");
        });
        // one slot: the second call waits ~700 ms for it, then works 500 ms; only the 500 ms count
        CallChain chain =
                chain(List.of(busy), timeout(RetryPolicy.NONE, Duration.ofMillis(1000), Map.of()), Map.of("busy", 1));
        Thread first = new Thread(() -> chain.execute(call("busy")));
        first.start();
        assertThat(firstInside.await(60, TimeUnit.SECONDS)).isTrue();
        long start = System.nanoTime();
        assertThat(chain.execute(call("busy")).asText()).isEqualTo("done");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(1000));
        first.join();
    }

    @Test
    void a_call_without_a_timeout_passes_straight_on_on_the_calling_thread() {
        java.util.concurrent.atomic.AtomicReference<Thread> ran = new java.util.concurrent.atomic.AtomicReference<>();
        Tool tool = Tool.of("here", "", (p, c) -> {
            ran.set(Thread.currentThread());
            return TextNode.valueOf("ok");
        });
        chain(List.of(tool), timeout(RetryPolicy.NONE, null, Map.of("here", Duration.ZERO)), Map.of())
                .execute(call("here"));
        assertThat(ran.get()).isSameAs(Thread.currentThread());
        chain(List.of(tool), timeout(RetryPolicy.NONE, Duration.ofSeconds(5), Map.of()), Map.of())
                .execute(call("here"));
        assertThat(ran.get()).isNotSameAs(Thread.currentThread());
    }

    @Test
    void a_tools_own_timeout_applies_unless_one_is_set_for_it() {
        Tool slow = new Tool() {
            @Override
            public String name() {
                return "slow";
            }

            @Override
            public java.util.Optional<Duration> callTimeout() {
                return java.util.Optional.of(Duration.ofMillis(100));
            }

            @Override
            public com.fasterxml.jackson.databind.JsonNode invoke(
                    com.fasterxml.jackson.databind.JsonNode params, CallContext context) {
                try {
                    Thread.sleep(2_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return TextNode.valueOf("late");
            }
        };
        assertThatThrownBy(() -> chain(List.of(slow), RetrySettings.of(RetryPolicy.NONE), Map.of())
                        .execute(call("slow")))
                .hasMessage("the call timed out after 0.1 s");
        assertThat(chain(List.of(slow), timeout(RetryPolicy.NONE, null, Map.of("slow", Duration.ZERO)), Map.of())
                        .execute(call("slow"))
                        .asText())
                .isEqualTo("late");
    }

    @Test
    void the_grace_past_a_timeout_is_a_tenth_of_it_between_50_ms_and_1_s() {
        assertThat(TimeoutLink.grace(Duration.ofMillis(100))).isEqualTo(Duration.ofMillis(50));
        assertThat(TimeoutLink.grace(Duration.ofMillis(499))).isEqualTo(Duration.ofMillis(50));
        assertThat(TimeoutLink.grace(Duration.ofMillis(500))).isEqualTo(Duration.ofMillis(50));
        assertThat(TimeoutLink.grace(Duration.ofMillis(510))).isEqualTo(Duration.ofMillis(51));
        assertThat(TimeoutLink.grace(Duration.ofSeconds(3))).isEqualTo(Duration.ofMillis(300));
        assertThat(TimeoutLink.grace(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(1));
        assertThat(TimeoutLink.grace(Duration.ofSeconds(60))).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void a_timed_attempt_that_fails_fails_the_same_way_and_an_error_becomes_a_permanent_failure() {
        RetrySettings settings = timeout(RetryPolicy.NONE, Duration.ofSeconds(5), Map.of());
        Tool refusing = Tool.of("refusing", "", (p, c) -> {
            throw ToolException.permanent("no such city");
        });
        Tool broken = Tool.of("broken", "", (p, c) -> {
            throw new AssertionError("a bug in the tool");
        });
        Tool deep = Tool.of("deep", "", (p, c) -> {
            throw new StackOverflowError();
        });
        CallChain chain = chain(List.of(refusing, broken, deep), settings, Map.of());
        assertThatThrownBy(() -> chain.execute(call("refusing"))).hasMessageContaining("no such city");
        assertThatThrownBy(() -> chain.execute(call("broken")))
                .isInstanceOf(ToolException.class)
                .hasMessageContaining("tool 'broken' failed unexpectedly: java.lang.AssertionError: a bug in the tool")
                .satisfies(e -> assertThat(((ToolException) e).retriable()).isFalse());
        assertThatThrownBy(() -> chain.execute(call("deep")))
                .as("the run fails as exhausted, as if the call ran on its own thread")
                .isInstanceOf(StackOverflowError.class);
    }

    @Test
    void a_timed_attempt_tells_the_tool_its_timeout() {
        AtomicReference<Duration> told = new AtomicReference<>();
        Tool tool = Tool.of("told", "", (p, c) -> {
            told.set(c.attemptTimeout().orElse(null));
            return TextNode.valueOf("ok");
        });
        chain(List.of(tool), timeout(RetryPolicy.NONE, Duration.ofSeconds(7), Map.of()), Map.of())
                .execute(call("told"));
        assertThat(told).hasValue(Duration.ofSeconds(7));
    }
}
