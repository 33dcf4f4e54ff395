package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How one plan file fared, whatever happened: the unit that {@code planvm batch} reports and
 * {@code planvm test} compares.
 *
 * @param file        the plan file
 * @param status      what happened
 * @param finalAnswer the run's {@code final_answer} (JSON null unless it ran)
 * @param error       why it did not succeed (one line: the run error, the rejection, or the
 *                    validation errors), or {@code null}
 * @param durationMs  wall time from loading to the end of the run
 * @param steps       instructions executed (0 unless it ran)
 * @param diagnostics validation diagnostics (errors and warnings)
 * @param trace       the run's trace, or {@code null} unless it ran
 */
public record PlanOutcome(Path file, Status status, JsonNode finalAnswer, String error, long durationMs, int steps,
                          List<Diagnostic> diagnostics, JsonNode trace) {

    /** What happened to a plan file. */
    public enum Status {
        /** The run succeeded. */
        SUCCEEDED,
        /** The run failed (a step failed, max steps, strict). */
        FAILED,
        /** The plan did not validate (or could not be read). */
        INVALID,
        /** The plan is valid but cannot run here (a tool not installed, no LLM, a missing cassette). */
        REJECTED;

        /** The lower-case name used in JSON reports and expectations. */
        public String label() {
            return name().toLowerCase();
        }
    }

    public PlanOutcome {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(status, "status");
        finalAnswer = finalAnswer == null ? NullNode.getInstance() : finalAnswer;
        diagnostics = List.copyOf(diagnostics);
    }

    public boolean succeeded() {
        return status == Status.SUCCEEDED;
    }
}
