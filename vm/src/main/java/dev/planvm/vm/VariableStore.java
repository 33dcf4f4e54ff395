package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.vm.expr.Variables;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The variables of one run: names to JSON values. Strict: reading an unset variable is an error
 * (see {@link #require}); values are never dropped while the run lives, so a backward jump can
 * always read what an earlier step wrote. Not thread-safe: a run owns its store.
 */
public final class VariableStore implements Variables {

    private final Map<String, JsonNode> values = new LinkedHashMap<>();

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

    public void set(String name, JsonNode value) {
        values.put(name, value == null ? NullNode.getInstance() : value);
    }

    /** A read-only copy, in the order variables were first set. */
    public Map<String, JsonNode> snapshot() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
