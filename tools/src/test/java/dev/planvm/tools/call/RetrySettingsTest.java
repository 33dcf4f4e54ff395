package dev.planvm.tools.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Which retry policy and attempt timeout each call gets, and what settings are refused. */
class RetrySettingsTest {

    private static final RetryPolicy FIVE = RetryPolicy.DEFAULT.withMaxAttempts(5);
    private static final Duration S10 = Duration.ofSeconds(10);

    private record Declaring(String name, OptionalInt maxAttempts) implements Tool {
        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            return params;
        }
    }

    private static Call call(String tool) {
        return new Call.ToolCall(tool, JsonNodeFactory.instance.objectNode(), CallContext.of(0));
    }

    private static final Call CONDITION =
            new Call.ConditionCall("is it?", JsonNodeFactory.instance.objectNode(), CallContext.of(0));

    private static RetrySettings settings(Duration timeout, Map<String, Duration> toolTimeouts) {
        return new RetrySettings(
                RetryPolicy.DEFAULT,
                Map.of("slow", FIVE),
                timeout,
                toolTimeouts,
                RetrySettings.DEFAULT_MAX_RETRY_AFTER);
    }

    @Test
    void a_timeout_must_be_positive_and_a_tools_not_negative() {
        assertThatThrownBy(() -> settings(Duration.ZERO, Map.of()))
                .hasMessage("the call timeout must be positive, not PT0S");
        assertThatThrownBy(() -> settings(Duration.ofSeconds(-1), Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> settings(null, Map.of("x", Duration.ofSeconds(-1))))
                .hasMessage("the timeout of tool 'x' must not be negative");
        assertThat(settings(null, Map.of("x", Duration.ZERO)).toolTimeouts()).containsEntry("x", Duration.ZERO);
        assertThatThrownBy(
                        () -> new RetrySettings(RetryPolicy.DEFAULT, Map.of(), null, Map.of(), Duration.ofMillis(-1)))
                .hasMessage("maxRetryAfter must not be negative");
    }

    @Test
    void the_defaults_are_the_default_policy_no_timeout_and_a_minute_of_retry_after() {
        assertThat(RetrySettings.DEFAULT.retry()).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(RetrySettings.DEFAULT.timeout()).isNull();
        assertThat(RetrySettings.DEFAULT.maxRetryAfter()).isEqualTo(Duration.ofSeconds(60));
        assertThat(RetrySettings.DEFAULT.hasTimeouts()).isFalse();
    }

    @Test
    void a_tools_own_policy_by_canonical_name_else_the_default_and_conditions_get_the_default() {
        RetrySettings settings = settings(null, Map.of());
        assertThat(settings.retryFor(call("slow"))).isEqualTo(FIVE);
        assertThat(settings.retryFor(call("fast"))).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(settings.retryFor(((Call.ToolCall) call("alias")).named("slow")))
                .isEqualTo(FIVE);
        assertThat(settings.retryFor(CONDITION)).isEqualTo(RetryPolicy.DEFAULT);
    }

    @Test
    void with_a_registry_the_attempts_a_tool_declares_come_after_a_policy_set_here() {
        ToolRegistry tools = ToolRegistry.of(
                List.of(new Declaring("slow", OptionalInt.of(2)), new Declaring("declares", OptionalInt.of(4))));
        RetrySettings settings = settings(null, Map.of());
        assertThat(settings.retryFor(call("slow"), tools)).isEqualTo(FIVE);
        assertThat(settings.retryFor(call("declares"), tools)).isEqualTo(RetryPolicy.DEFAULT.withMaxAttempts(4));
        assertThat(settings.retryFor(call("unknown"), tools)).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(settings.retryFor(CONDITION, tools)).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(RetrySettings.DEFAULT.retryFor(call("declares"), tools))
                .as("no policies set here at all")
                .isEqualTo(RetryPolicy.DEFAULT.withMaxAttempts(4));
    }

    @Test
    void a_calls_timeout_is_its_tools_own_else_the_runs_and_zero_means_none() {
        RetrySettings settings = settings(S10, Map.of("slow", Duration.ofSeconds(60), "free", Duration.ZERO));
        assertThat(settings.timeoutFor(call("slow"))).isEqualTo(Duration.ofSeconds(60));
        assertThat(settings.timeoutFor(call("free"))).isNull();
        assertThat(settings.timeoutFor(call("other"))).isEqualTo(S10);
        assertThat(settings.timeoutFor(CONDITION)).isEqualTo(S10);
        assertThat(settings.timeoutFor(CONDITION, ToolRegistry.of(List.of()))).isEqualTo(S10);
        assertThat(settings(null, Map.of()).timeoutFor(call("other"))).isNull();
    }

    @Test
    void timeouts_exist_when_the_run_or_some_tool_has_a_limit() {
        assertThat(settings(S10, Map.of()).hasTimeouts()).isTrue();
        assertThat(settings(null, Map.of("x", S10)).hasTimeouts()).isTrue();
        assertThat(settings(null, Map.of("x", Duration.ZERO)).hasTimeouts()).isFalse();
        assertThat(settings(null, Map.of()).hasTimeouts()).isFalse();
    }
}
