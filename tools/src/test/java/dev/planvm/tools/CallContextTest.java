package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a call carries to its tool: the seq_no, the keys expected, the attempt's timeout. */
class CallContextTest {

    @Test
    void a_timeout_must_be_positive() {
        assertThatThrownBy(() -> CallContext.of(1).withTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a call's timeout must be positive, not PT0S");
        assertThatThrownBy(() -> CallContext.of(1).withTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(CallContext.of(1).attemptTimeout()).isEmpty();
        assertThat(CallContext.of(1).withTimeout(Duration.ofSeconds(3)).attemptTimeout())
                .contains(Duration.ofSeconds(3));
    }

    @Test
    void a_tools_io_is_bounded_by_the_attempt_else_its_own_setting_else_its_default() {
        Duration byDefault = Duration.ofSeconds(30);
        CallContext timed = CallContext.of(1).withTimeout(Duration.ofSeconds(3));
        assertThat(timed.ioTimeout(Optional.of(Duration.ofSeconds(9)), byDefault))
                .isEqualTo(Duration.ofSeconds(3));
        CallContext untimed = CallContext.of(1);
        assertThat(untimed.ioTimeout(Optional.of(Duration.ofSeconds(9)), byDefault))
                .isEqualTo(Duration.ofSeconds(9));
        assertThat(untimed.ioTimeout(Optional.of(Duration.ZERO), byDefault)).isEqualTo(byDefault);
        assertThat(untimed.ioTimeout(Optional.empty(), byDefault)).isEqualTo(byDefault);
    }

    @Test
    void two_contexts_are_equal_by_seq_no_and_expected_keys_only() {
        CallContext a = new CallContext(3, List.of("x"));
        CallContext b = new CallContext(3, List.of("x"), CallEvents.NONE, Duration.ofSeconds(1));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(new CallContext(4, List.of("x")));
        assertThat(a).isNotEqualTo(new CallContext(3, List.of("y")));
        assertThat(a).isNotEqualTo("CallContext");
        assertThat(new CallContext(1, List.of()).hashCode()).isNotEqualTo(new CallContext(2, List.of()).hashCode());
        assertThat(new CallContext(2, List.of("a")).hashCode())
                .isEqualTo(31 * 2 + List.of("a").hashCode());
        assertThat(a).hasToString("CallContext[seqNo=3, expectedKeys=[x]]");
    }
}
