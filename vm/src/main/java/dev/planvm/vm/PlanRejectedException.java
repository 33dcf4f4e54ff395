package dev.planvm.vm;

import java.util.List;

/**
 * A valid plan that this VM cannot run as configured (a tool that is not installed, an LLM
 * condition with no condition evaluator): refused before anything runs.
 */
public final class PlanRejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    public PlanRejectedException(List<String> problems) {
        super(String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** One sentence per problem, each starting with the {@code seq_no} it concerns. */
    public List<String> problems() {
        return problems;
    }
}
