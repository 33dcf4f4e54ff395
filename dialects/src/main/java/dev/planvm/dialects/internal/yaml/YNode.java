package dev.planvm.dialects.internal.yaml;

import dev.planvm.dialects.internal.Pos;
import java.util.List;

/** A YAML node as the plan reader sees it: scalars stay text, with their place in the file. */
sealed interface YNode {

    Pos pos();

    /**
     * A scalar: always text (no YAML type resolution, so {@code yes}, {@code 0123} and
     * {@code 2023-12-02} stay as written).
     *
     * @param value    the text after YAML's quoting and folding
     * @param plain    written without quotes or block indicators
     * @param empty    nothing was written ({@code key:} with no value)
     * @param endLine  the 1-based line the scalar ends on
     * @param endColumn the 1-based column just after it
     */
    record Scalar(String value, Pos pos, boolean plain, boolean empty, boolean quoted, int endLine, int endColumn)
            implements YNode {}

    record Mapping(List<Entry> entries, Pos pos) implements YNode {
        public Mapping {
            entries = List.copyOf(entries);
        }
    }

    record Entry(Scalar key, YNode value) {}

    record Sequence(List<YNode> items, Pos pos) implements YNode {
        public Sequence {
            items = List.copyOf(items);
        }
    }
}
