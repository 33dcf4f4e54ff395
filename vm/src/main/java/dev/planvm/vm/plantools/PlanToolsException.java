package dev.planvm.vm.plantools;

import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.TypedFailure;
import java.util.List;

/** Plan tools that cannot be offered: every problem, each naming its file or tool. */
public final class PlanToolsException extends RuntimeException implements TypedFailure {
    private static final long serialVersionUID = 1L;

    private final transient List<String> problems;

    public PlanToolsException(List<String> problems) {
        super("plan tools: " + String.join("\n", problems));
        this.problems = List.copyOf(problems);
    }

    /** One sentence per problem. */
    public List<String> problems() {
        return problems;
    }

    /** {@link FailureKind#INVALID_PLAN}. */
    @Override
    public FailureKind kind() {
        return FailureKind.INVALID_PLAN;
    }
}
