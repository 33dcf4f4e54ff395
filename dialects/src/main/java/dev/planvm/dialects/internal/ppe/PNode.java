package dev.planvm.dialects.internal.ppe;

import dev.planvm.dialects.internal.Pos;
import java.util.List;

/**
 * A YAML node of a PPE script, with its place in the file. Scalars stay text (the compiler decides
 * what a plain {@code 0.7} or {@code true} means where it reads one); a tag ({@code !fn}) is kept so
 * the compiler can refuse the construct by name.
 */
sealed interface PNode {

    Pos pos();

    /** The YAML tag written on the node ({@code !fn}), or null. */
    String tag();

    /**
     * A scalar.
     *
     * @param value the text after YAML's quoting and folding
     * @param plain written without quotes or block indicators
     */
    record Scalar(String value, Pos pos, boolean plain, String tag) implements PNode {}

    /** A mapping; duplicate keys are kept, in order (a script's top level may repeat {@code user:}). */
    record Mapping(List<Entry> entries, Pos pos, String tag) implements PNode {
        public Mapping {
            entries = List.copyOf(entries);
        }
    }

    record Entry(Scalar key, PNode value) {}

    record Sequence(List<PNode> items, Pos pos, String tag) implements PNode {
        public Sequence {
            items = List.copyOf(items);
        }
    }

    /**
     * One YAML document of the script.
     *
     * @param root     its content, or null when it is empty
     * @param pos      where it starts
     * @param explicit whether it starts with {@code ---}
     */
    record Document(PNode root, Pos pos, boolean explicit) {}
}
