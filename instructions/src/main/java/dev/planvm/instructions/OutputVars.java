package dev.planvm.instructions;

import java.util.List;
import java.util.Objects;

/** The {@code output_vars} of a {@code calling} instruction (DESIGN P9). */
public sealed interface OutputVars {

    /** The variable names this writes, in order. */
    List<String> names();

    /** No {@code output_vars}: the output is discarded (kept in the trace). */
    record None() implements OutputVars {
        @Override
        public List<String> names() {
            return List.of();
        }
    }

    /** {@code "output_vars": "name"}: the whole output is stored. */
    record Whole(String name) implements OutputVars {
        public Whole {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public List<String> names() {
            return List.of(name);
        }
    }

    /**
     * {@code "output_vars": [...]}: with one name, that key of an object output or else the whole
     * output; with two or more, each key of the (object) output.
     */
    record Keys(List<String> names) implements OutputVars {
        public Keys {
            names = List.copyOf(names);
        }
    }
}
