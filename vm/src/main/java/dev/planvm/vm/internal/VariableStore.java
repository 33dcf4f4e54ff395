package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.vm.run.RunLimits;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The variables of one run: names to JSON values. Values are never dropped while the run lives,
 * so a backward jump can always read what an earlier step wrote. A value a step sets must fit the
 * {@link RunLimits}. {@link #get} returns {@code null} for an unset variable; the expression
 * evaluator turns that into the error that names it. Not thread-safe: a run owns its store.
 */
public final class VariableStore implements Variables {

    private final Map<String, JsonNode> values = new LinkedHashMap<>();
    private final RunLimits limits;

    public VariableStore(RunLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** The value, or {@code null} when unset. */
    @Override
    public JsonNode get(String name) {
        return values.get(name);
    }

    /** Sets a variable (null is JSON null); a value over the limits is a {@code StepFailure} and sets nothing. */
    public void set(String name, JsonNode value) {
        JsonNode json = value == null ? NullNode.getInstance() : value;
        limits.checkVariable(name, json);
        values.put(name, json);
    }

    /** Sets a variable the caller supplied (a run's inputs, a checkpoint's variables) without checking the limits. */
    public void restore(String name, JsonNode value) {
        values.put(name, value == null ? NullNode.getInstance() : value);
    }

    public RunLimits limits() {
        return limits;
    }

    /** A read-only copy, in the order variables were first set. */
    public Map<String, JsonNode> snapshot() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
