package dev.planvm.vm.batch;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@link RegressionRun#update} did to one plan's expectation.
 *
 * @param plan        the plan file
 * @param expectation its {@code X.expected.json}
 * @param change      whether the file was created, rewritten or left alone
 */
public record RegressionUpdate(Path plan, Path expectation, Change change) {

    /** What happened to the expectation file. */
    public enum Change {
        /** There was none; it was written. */
        CREATED,
        /** The plan no longer met it (or it was unusable); it was rewritten. */
        UPDATED,
        /** The plan meets it; the file was not touched. */
        UNCHANGED
    }

    public RegressionUpdate {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(change, "change");
    }

    /** {@code UPDATED plans/x.json}, as {@code planvm test --update} prints it. */
    public String line() {
        return change + " " + plan;
    }
}
