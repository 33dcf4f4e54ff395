package dev.planvm.dialects.internal.idyll;

import dev.planvm.dialects.internal.Pos;
import java.util.List;

/** A block's inline content: text and, inside a custom function's definition, variables. */
sealed interface Rich {

    /** Text, markup (bold, links, mentions' labels) read as text. */
    record Text(String text) implements Rich {}

    /**
     * A {@code <variable name prompt>}: resolved once per call of the function that holds it.
     *
     * @param prompt what the variable is for, or {@code null}
     */
    record Var(String name, String prompt, Pos pos) implements Rich {}

    /** The content as plain text, each variable left out (as the reference's executor reads a block's content). */
    static String plain(List<Rich> content) {
        StringBuilder sb = new StringBuilder();
        for (Rich part : content) {
            if (part instanceof Text t) {
                sb.append(t.text());
            }
        }
        return sb.toString();
    }
}
