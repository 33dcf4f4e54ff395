package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a run starts: at an instruction position, after some steps, with some variables. A fresh
 * run starts at position 0 with its inputs; a resumed run starts where its last committed step
 * left it.
 *
 * @param position  index into {@code Plan.instructions()} of the next instruction to run
 *                  (the plan's size: nothing left)
 * @param steps     instructions already executed (they count towards the step limit)
 * @param variables every variable, in the order first set
 */
public record Checkpoint(int position, int steps, Map<String, JsonNode> variables) {
    public Checkpoint {
        if (position < 0 || steps < 0) {
            throw new IllegalArgumentException("position and steps must not be negative");
        }
        variables = Collections.unmodifiableMap(new LinkedHashMap<>(variables));
    }

    /** The start of a fresh run with these inputs. */
    public static Checkpoint start(Map<String, JsonNode> inputs) {
        return new Checkpoint(0, 0, inputs);
    }
}
