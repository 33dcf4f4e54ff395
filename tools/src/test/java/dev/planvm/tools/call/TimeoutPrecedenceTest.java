package dev.planvm.tools.call;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** --tool-timeout > the tool's own setting > --call-timeout > the tool kind's default, for any tool. */
class TimeoutPrecedenceTest {

    /** A tool with an own setting ({@code timeout_s}) and a default, either may be absent. */
    private record Timed(String name, Duration own, Duration byDefault) implements Tool {
        @Override
        public Optional<Duration> callTimeout() {
            return Optional.ofNullable(own);
        }

        @Override
        public Optional<Duration> defaultCallTimeout() {
            return Optional.ofNullable(byDefault);
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            return params;
        }
    }

    private static final Duration S30 = Duration.ofSeconds(30);
    private static final Duration S60 = Duration.ofSeconds(60);

    private static Duration timeout(Tool tool, Duration flag, Map<String, Duration> option) {
        RetrySettings settings =
                new RetrySettings(RetryPolicy.DEFAULT, Map.of(), flag, option, RetrySettings.DEFAULT_MAX_RETRY_AFTER);
        Call call = new Call.ToolCall(tool.name(), JsonNodeFactory.instance.objectNode(), CallContext.of(0));
        return settings.timeoutFor(call, ToolRegistry.of(List.of(tool)));
    }

    @Test
    void the_flag_beats_the_default_even_when_it_is_longer() {
        assertThat(timeout(new Timed("http", null, S30), S60, Map.of())).isEqualTo(S60);
    }

    @Test
    void the_default_holds_when_nothing_else_is_set() {
        assertThat(timeout(new Timed("http", null, S30), null, Map.of())).isEqualTo(S30);
        assertThat(timeout(new Timed("java", null, null), null, Map.of())).isNull();
    }

    @Test
    void the_tools_own_setting_beats_the_flag_either_way() {
        assertThat(timeout(new Timed("http", Duration.ofSeconds(5), S30), S60, Map.of()))
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(timeout(new Timed("http", Duration.ofSeconds(90), S30), S60, Map.of()))
                .isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void the_tool_timeout_option_beats_everything_and_zero_means_no_limit() {
        Timed tool = new Timed("http", Duration.ofSeconds(5), S30);
        assertThat(timeout(tool, S60, Map.of("http", Duration.ofSeconds(2)))).isEqualTo(Duration.ofSeconds(2));
        assertThat(timeout(tool, S60, Map.of("http", Duration.ZERO))).isNull();
        assertThat(timeout(new Timed("http", Duration.ZERO, S30), S60, Map.of()))
                .as("timeout_s 0: no limit")
                .isNull();
    }
}
