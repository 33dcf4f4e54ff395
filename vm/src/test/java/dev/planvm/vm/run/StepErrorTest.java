package dev.planvm.vm.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.tools.ToolException;
import org.junit.jupiter.api.Test;

/** A step that failed and did not stop the run: its kind, whether a run may go on after it, its JSON. */
class StepErrorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void the_kind_is_the_most_specific_a_tool_exception_among_the_causes_says() {
        assertThat(StepError.Kind.of(new IllegalStateException("boom"))).isEqualTo(StepError.Kind.STEP_FAILED);
        assertThat(StepError.Kind.of(ToolException.permanent("bad"))).isEqualTo(StepError.Kind.TOOL_ERROR);
        assertThat(StepError.Kind.of(new RuntimeException(ToolException.denied("no"))))
                .isEqualTo(StepError.Kind.DENIED);
        ToolException retriesSpent = new ToolException("retries spent", false, ToolException.timeout("slow"));
        assertThat(StepError.Kind.of(retriesSpent)).isEqualTo(StepError.Kind.TIMEOUT);
        assertThat(StepError.Kind.TIMEOUT.label()).isEqualTo("timeout");
        assertThat(StepError.Kind.STEP_FAILED.label()).isEqualTo("step_failed");
    }

    @Test
    void only_a_failure_of_the_step_itself_lets_the_run_go_on() {
        assertThat(StepError.recoverable(new IllegalStateException("boom"))).isTrue();
        assertThat(StepError.recoverable(ToolException.permanent("bad"))).isTrue();
        assertThat(StepError.recoverable(new LimitReached("too big"))).isFalse();
        assertThat(StepError.recoverable(new RuntimeException(new LimitReached("too big"))))
                .isFalse();
    }

    @Test
    void last_error_always_names_the_tool_and_the_result_lists_it_only_for_a_call() throws Exception {
        StepError call = new StepError(3, "calling", "search", StepError.Kind.TIMEOUT, "timed out");
        assertThat(call.lastError())
                .isEqualTo(JSON.readTree(
                        "{\"seq_no\": 3, \"tool\": \"search\", \"kind\": \"timeout\", \"message\": \"timed out\"}"));
        assertThat(call.toJson())
                .isEqualTo(JSON.readTree("{\"seq_no\": 3, \"type\": \"calling\", \"tool\": \"search\","
                        + " \"kind\": \"timeout\", \"message\": \"timed out\"}"));
        StepError assign = new StepError(4, "assign", null, StepError.Kind.STEP_FAILED, "no such variable");
        assertThat(assign.toJson())
                .isEqualTo(JSON.readTree("{\"seq_no\": 4, \"type\": \"assign\", \"kind\": \"step_failed\","
                        + " \"message\": \"no such variable\"}"));
        assertThat(assign.lastError().get("tool").isNull()).isTrue();
        assertThatThrownBy(() -> new StepError(1, null, null, StepError.Kind.STEP_FAILED, "m"))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("type");
    }
}
