package dev.planvm.vm;

import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.TypedFailure;
import java.util.List;

/**
 * A valid plan that this VM cannot run as configured (a tool that is not installed, an LLM
 * condition with no condition evaluator): refused before anything runs.
 */
public final class PlanRejectedException extends RuntimeException implements TypedFailure {
    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    public PlanRejectedException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** {@link FailureKind#REJECTED_BEFORE_RUNNING}. */
    @Override
    public FailureKind kind() {
        return FailureKind.REJECTED_BEFORE_RUNNING;
    }

    /** One sentence per problem, each starting with the {@code seq_no} it concerns. */
    public List<String> problems() {
        return problems;
    }
}
