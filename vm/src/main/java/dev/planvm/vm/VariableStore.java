package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.vm.expr.Variables;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The variables of one run: names to JSON values. Strict: reading an unset variable is an error
 * (see {@link #require}); values are never dropped while the run lives, so a backward jump can
 * always read what an earlier step wrote. A value a step sets must fit the {@link RunLimits}. Not
 * thread-safe: a run owns its store.
 */
public final class VariableStore implements Variables {

    private final Map<String, JsonNode> values = new LinkedHashMap<>();
    private final RunLimits limits;

    /** A store within {@link RunLimits#DEFAULT}. */
    public VariableStore() {
        this(RunLimits.DEFAULT);
    }

    public VariableStore(RunLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** The value, or {@code null} when unset. */
    @Override
    public JsonNode get(String name) {
        return values.get(name);
    }

    /** The value; an unset variable is a {@link StepFailure} that names it. */
    public JsonNode require(String name) {
        JsonNode value = values.get(name);
        if (value == null) {
            throw new StepFailure("variable '" + name + "' is not set");
        }
        return value;
    }

    public boolean isSet(String name) {
        return values.containsKey(name);
    }

    /** Sets a variable (null is JSON null); a value over the limits is a {@link StepFailure} and sets nothing. */
    public void set(String name, JsonNode value) {
        JsonNode json = value == null ? NullNode.getInstance() : value;
        limits.checkVariable(name, json);
        values.put(name, json);
    }

    /** Sets a variable the caller supplied (a run's inputs, a checkpoint's variables) without checking the limits. */
    public void restore(String name, JsonNode value) {
        values.put(name, value == null ? NullNode.getInstance() : value);
    }

    /** The limits values must fit. */
    public RunLimits limits() {
        return limits;
    }

    /** A read-only copy, in the order variables were first set. */
    public Map<String, JsonNode> snapshot() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
