package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.temporal.TemporalException;
import dev.planvm.vm.run.FailureKind;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exit code of a failure is decided by its kind alone: one table, whatever the message says. */
class ExitCodesTest {

    @Test
    void every_kind_of_failure_has_its_exit_code() {
        Map<FailureKind, Integer> codes = new EnumMap<>(FailureKind.class);
        for (FailureKind kind : FailureKind.values()) {
            codes.put(kind, ExitCodes.of(kind));
        }
        assertThat(codes)
                .containsEntry(FailureKind.INVALID_PLAN, 2)
                .containsEntry(FailureKind.REJECTED_BEFORE_RUNNING, 2)
                .containsEntry(FailureKind.NO_SUCH_RUN, 2)
                .containsEntry(FailureKind.CONFLICT, 2)
                .containsEntry(FailureKind.STEP_FAILED, 1)
                .containsEntry(FailureKind.LIMIT_REACHED, 1)
                .containsEntry(FailureKind.STORE_FAILED, 1)
                .containsEntry(FailureKind.STORE_FULL, 1)
                .containsEntry(FailureKind.UNAVAILABLE, 1)
                .containsEntry(FailureKind.CANCELLED, 1)
                .containsEntry(FailureKind.WAITING_FOR_APPROVAL, 3)
                .containsEntry(FailureKind.WAITING_FOR_INPUT, 3)
                .containsEntry(FailureKind.INTERRUPTED, 130)
                .hasSize(FailureKind.values().length);
    }

    @Test
    void a_temporal_failure_exits_by_its_kind_not_by_its_wording() {
        // before, TemporalRun chose by prefix: "cannot ..." exited 1, "no workflow ..." 2
        assertThat(ExitCodes.of(new TemporalException(FailureKind.NO_SUCH_RUN, "cannot find workflow 'w'").kind()))
                .isEqualTo(ExitCodes.INVALID);
        assertThat(ExitCodes.of(new TemporalException(FailureKind.UNAVAILABLE, "no workflow server answers").kind()))
                .isEqualTo(ExitCodes.RUNTIME_FAILURE);
    }
}
