package dev.planvm.instructions;

import java.util.Set;
import java.util.TreeSet;

/**
 * The variables a plan is given when it runs, as the loader's checks see them: each counts as
 * assigned before the first instruction. When the plan <em>declares</em> its inputs (a plan tool's
 * {@code inputs}, {@code planvm validate --input}), reading a variable that is neither an input nor
 * assigned by any instruction is an error; otherwise it is a warning, since inputs arrive at run time.
 */
record PlanInputs(Set<String> names, boolean declared) {

    static final PlanInputs NONE = new PlanInputs(Set.of(), false);

    PlanInputs {
        names = Set.copyOf(names);
    }

    String describe() {
        return names.isEmpty() ? "none" : String.join(", ", new TreeSet<>(names));
    }
}
