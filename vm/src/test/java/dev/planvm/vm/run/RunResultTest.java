package dev.planvm.vm.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunResultTest {

    private static final RunError FAILURE = new RunError(3, "calling", "tool 'x' failed", null);
    private static final PendingCall PENDING = new PendingCall(1, "calling", "send", NullNode.getInstance());

    private static RunResult result(RunStatus status, RunError error, PendingCall pending, List<StepError> failed) {
        return new RunResult(
                status,
                TextNode.valueOf("answer"),
                Map.of("a", TextNode.valueOf("1")),
                error,
                4,
                Duration.ofMillis(5),
                null,
                List.of("own warning"),
                new RunResult.EarlyCalls(2, 1, 0),
                pending,
                failed);
    }

    @Test
    void a_result_ends_succeeded_failed_waiting_or_interrupted_and_says_why_when_it_did_not_succeed() {
        assertThatThrownBy(() -> result(RunStatus.RUNNING, FAILURE, null, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "a run ends succeeded, completed_with_failures, failed, waiting or interrupted, not running");
        assertThatThrownBy(() -> result(RunStatus.FAILED, null, null, List.of()))
                .hasMessage("a run that did not succeed says why (error)");
        assertThatThrownBy(() -> result(RunStatus.WAITING, FAILURE, null, List.of()))
                .hasMessage("a waiting run, and only one, has a pending call");
        assertThatThrownBy(() -> result(RunStatus.FAILED, FAILURE, PENDING, List.of()))
                .hasMessage("a waiting run, and only one, has a pending call");

        assertThat(result(RunStatus.SUCCEEDED, null, null, List.of()).succeeded())
                .isTrue();
        RunResult waiting = result(RunStatus.WAITING, FAILURE, PENDING, List.of());
        assertThat(waiting.waiting()).isTrue();
        assertThat(waiting.succeeded()).isFalse();
        assertThat(waiting.interrupted()).isFalse();
        RunResult interrupted = result(RunStatus.INTERRUPTED, FAILURE, null, List.of());
        assertThat(interrupted.interrupted()).isTrue();
        assertThat(interrupted.waiting()).isFalse();
    }

    @Test
    void a_step_failed_only_when_the_run_went_on_past_one_and_then_the_run_completed_with_failures() {
        StepError failed = new StepError(2, "calling", "x", StepError.Kind.TOOL_ERROR, "boom");
        assertThat(result(RunStatus.SUCCEEDED, null, null, List.of()).anyStepFailed())
                .isFalse();
        RunResult completed = result(RunStatus.COMPLETED_WITH_FAILURES, null, null, List.of(failed));
        assertThat(completed.anyStepFailed()).isTrue();
        assertThat(completed.succeeded()).isFalse();
        assertThat(completed.completed()).isTrue();
        assertThat(result(RunStatus.SUCCEEDED, null, null, List.of()).completed())
                .isTrue();
        assertThat(result(RunStatus.FAILED, FAILURE, null, List.of(failed)).completed())
                .isFalse();
        assertThatThrownBy(() -> result(RunStatus.SUCCEEDED, null, null, List.of(failed)))
                .hasMessage("a run that went on past failed steps did not succeed: it is completed_with_failures");
        assertThatThrownBy(() -> result(RunStatus.COMPLETED_WITH_FAILURES, null, null, List.of()))
                .hasMessage("a run completed with failures lists its failed steps, and has no error of its own");
    }

    @Test
    void the_withers_change_only_what_they_name() {
        RunResult base = result(RunStatus.SUCCEEDED, null, null, List.of());

        RunResult traced = base.withTrace(TextNode.valueOf("trace"));
        assertThat(traced.trace().asText()).isEqualTo("trace");
        assertThat(traced).usingRecursiveComparison().ignoringFields("trace").isEqualTo(base);

        RunResult warned = base.withWarningsFirst(List.of("earlier"));
        assertThat(warned.warnings()).containsExactly("earlier", "own warning");
        assertThat(warned).usingRecursiveComparison().ignoringFields("warnings").isEqualTo(base);

        RunResult failed =
                result(RunStatus.WAITING, FAILURE, PENDING, List.of()).failedWith(FAILURE);
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error()).isEqualTo(FAILURE);
        assertThat(failed.pending()).as("a failed run waits for nothing").isNull();
        assertThat(failed.steps()).isEqualTo(4);
        assertThat(failed.earlyCalls()).isEqualTo(new RunResult.EarlyCalls(2, 1, 0));
        assertThat(failed.finalAnswer().asText()).isEqualTo("answer");
    }

    @Test
    void an_error_is_described_with_its_line_its_step_or_alone() {
        assertThat(FAILURE.describe()).isEqualTo("seq_no 3 (calling): tool 'x' failed");
        assertThat(FAILURE.withLine(12).describe()).isEqualTo("line 12 (seq_no 3, calling): tool 'x' failed");
        assertThat(FAILURE.withLine(12).withLine(null).describe()).isEqualTo("seq_no 3 (calling): tool 'x' failed");
        assertThat(new RunError(null, null, "the run was cancelled", null).describe())
                .isEqualTo("the run was cancelled");
        assertThat(FAILURE.kind()).isEqualTo(FailureKind.ofStep(null));
        RunError limit = FAILURE.withLine(7).withKind(FailureKind.LIMIT_REACHED);
        assertThat(limit.kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(limit.line()).isEqualTo(7);
        assertThat(limit.message()).isEqualTo("tool 'x' failed");
    }
}
