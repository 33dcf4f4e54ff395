package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How one plan file fared, whatever happened: the unit that {@code planvm batch} reports and
 * {@code planvm test} compares.
 *
 * @param file        the plan file
 * @param status      what happened: succeeded, failed, invalid or rejected
 * @param finalAnswer the run's {@code final_answer} (JSON null unless it ran)
 * @param error       why it did not succeed (one line: the run error, the rejection, or the
 *                    validation errors), or {@code null}
 * @param durationMs  wall time from loading to the end of the run
 * @param steps       instructions executed (0 unless it ran)
 * @param diagnostics validation diagnostics (errors and warnings), then the run's warnings (calls a replayed cassette does not cover)
 * @param trace       the run's trace, or {@code null} unless it ran
 */
public record PlanOutcome(
        Path file,
        RunStatus status,
        JsonNode finalAnswer,
        String error,
        long durationMs,
        int steps,
        List<Diagnostic> diagnostics,
        JsonNode trace) {

    /** The statuses a plan file can end with: succeeded, failed, invalid, rejected. */
    public static final List<RunStatus> STATUSES =
            List.of(RunStatus.SUCCEEDED, RunStatus.FAILED, RunStatus.INVALID, RunStatus.REJECTED);

    public PlanOutcome {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(status, "status");
        finalAnswer = finalAnswer == null ? NullNode.getInstance() : finalAnswer;
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean succeeded() {
        return status == RunStatus.SUCCEEDED;
    }
}
