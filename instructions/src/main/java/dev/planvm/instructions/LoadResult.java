package dev.planvm.instructions;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of loading a plan: the plan when it has no errors, and every diagnostic found.
 *
 * @param source      where the plan came from
 * @param plan        the plan, or {@code null} when any diagnostic is an error
 * @param diagnostics errors and warnings, in document order
 */
public record LoadResult(String source, Plan plan, List<Diagnostic> diagnostics) {

    public LoadResult {
        Objects.requireNonNull(source, "source");
        diagnostics = List.copyOf(diagnostics);
    }

    /** Whether the plan can run (no errors; warnings allowed). */
    public boolean valid() {
        return plan != null;
    }

    public List<Diagnostic> errors() {
        return diagnostics.stream().filter(Diagnostic::isError).toList();
    }

    public List<Diagnostic> warnings() {
        return diagnostics.stream().filter(d -> !d.isError()).toList();
    }

    /** The plan, or an {@link InvalidPlanException} listing every error. */
    public Plan planOrThrow() {
        if (plan == null) {
            throw new InvalidPlanException(source, errors());
        }
        return plan;
    }
}
