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

    @Test
    void an_element_of_a_map_keeps_its_index_through_every_copy_and_is_not_compared() {
        CallContext element = CallContext.of(3).withElement(2);
        assertThat(element.isElement()).isTrue();
        assertThat(element.withTimeout(Duration.ofSeconds(1))
                        .withEvents(CallEvents.NONE)
                        .element())
                .as("the index goes with the call through the chain's links")
                .isEqualTo(2);
        assertThat(CallContext.of(3).element()).isEqualTo(CallContext.NO_ELEMENT);
        assertThat(CallContext.of(3).isElement()).isFalse();
        assertThat(element).as("a cassette matches a call by tool and params").isEqualTo(CallContext.of(3));
        assertThat(element).hasToString("CallContext[seqNo=3, expectedKeys=[], element=2]");
        assertThatThrownBy(() -> CallContext.of(3).withElement(-2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a call's element index must be 0 or more, not -2");
    }
}
