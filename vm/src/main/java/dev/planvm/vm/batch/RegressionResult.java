package dev.planvm.vm.batch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How one plan file fared against its expectation in a {@link RegressionRun}.
 *
 * @param plan       the plan file
 * @param verdict    passed, failed or skipped
 * @param details    for a failure, the differences ({@link Expectation#compare}) or why the
 *                   expectation is unusable; for a skip, why; empty when passed
 * @param durationMs the run's wall time (0 when it did not run)
 */
public record RegressionResult(Path plan, Verdict verdict, List<String> details, long durationMs) {

    /** The result of one regression test. */
    public enum Verdict {
        /** The plan met its expectation. */
        PASSED,
        /** The plan did not meet its expectation, or the expectation is unusable. */
        FAILED,
        /** The plan has no expectation. */
        SKIPPED
    }

    public RegressionResult {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(verdict, "verdict");
        details = List.copyOf(details);
    }

    static RegressionResult passed(Path plan, long durationMs) {
        return new RegressionResult(plan, Verdict.PASSED, List.of(), durationMs);
    }

    static RegressionResult failed(Path plan, List<String> details, long durationMs) {
        return new RegressionResult(plan, Verdict.FAILED, details, durationMs);
    }

    static RegressionResult skipped(Path plan, String reason) {
        return new RegressionResult(plan, Verdict.SKIPPED, List.of(reason), 0);
    }

    /**
     * The lines {@code planvm test} prints: {@code PASS plans/x.json (12 ms)};
     * {@code FAIL plans/x.json} then each detail indented by two spaces;
     * {@code SKIP plans/x.json (no x.expected.json)}.
     */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (verdict == Verdict.PASSED) {
            lines.add("PASS " + plan + " (" + durationMs + " ms)");
        } else if (verdict == Verdict.SKIPPED) {
            lines.add("SKIP " + plan + " (" + String.join("; ", details) + ")");
        } else {
            lines.add("FAIL " + plan);
            details.forEach(detail -> lines.add("  " + detail));
        }
        return lines;
    }
}
