package dev.planvm.vm.batch;

import java.util.List;

/**
 * The results of a {@link RegressionRun}, in the order the plans were given.
 *
 * @param results one per plan
 */
public record RegressionReport(List<RegressionResult> results) {

    public RegressionReport {
        results = List.copyOf(results);
    }

    public long passed() {
        return count(RegressionResult.Verdict.PASSED);
    }

    public long failed() {
        return count(RegressionResult.Verdict.FAILED);
    }

    public long skipped() {
        return count(RegressionResult.Verdict.SKIPPED);
    }

    /** No plan failed (skipped ones allowed). */
    public boolean allPassed() {
        return failed() == 0;
    }

    /** {@code N passed, M failed}, then {@code , K skipped} when any were; CI parses this line. */
    public String summary() {
        return passed() + " passed, " + failed() + " failed" + (skipped() == 0 ? "" : ", " + skipped() + " skipped");
    }

    private long count(RegressionResult.Verdict verdict) {
        return results.stream().filter(r -> r.verdict() == verdict).count();
    }
}
