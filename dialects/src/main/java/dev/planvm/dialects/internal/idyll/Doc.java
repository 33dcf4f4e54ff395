package dev.planvm.dialects.internal.idyll;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What {@link DocumentReader} read: the document's blocks in order and its custom functions. */
record Doc(String id, List<Block> blocks, Map<String, Function> functions, String context) {

    Doc {
        blocks = List.copyOf(blocks);
        functions = Map.copyOf(functions);
    }

    /**
     * An executable block, {@code <fncall>}.
     *
     * @param id      its {@code id}, or one made from its place ({@code block-3})
     * @param fn      the function as written ({@code idyll-fn} or {@code idyll-tool})
     * @param name    the function in the colon form ({@code demo--echo} is {@code demo:echo})
     * @param params  its {@code <params>}, or an empty object
     * @param content its {@code <content>}, or {@code null} when it has none
     * @param element where it is, for messages and for a copy of the document with results
     */
    record Block(String id, String fn, String name, ObjectNode params, List<Rich> content, XmlElement element) {
        Block {
            Objects.requireNonNull(id, "id");
            content = content == null ? null : List.copyOf(content);
        }

        Pos pos() {
            return element.pos;
        }

        int line() {
            return element.pos.line();
        }
    }

    /** A variable a function declares: the first {@code <variable>} with its name, and that one's prompt. */
    record Variable(String name, String prompt) {}

    /**
     * A custom function, {@code <function title>} (or the seed's {@code <tool title>}).
     *
     * @param name          {@code custom:} and the title in snake case
     * @param blocks        the blocks of its definition, run in order when it is called
     * @param variables     its variables, in the order they first appear
     * @param redeclaration the first variable declared again with another prompt, as a message; or {@code null}
     */
    record Function(
            String title,
            String name,
            String description,
            List<Block> blocks,
            List<Variable> variables,
            String redeclaration,
            Pos pos) {
        Function {
            blocks = List.copyOf(blocks);
            variables = List.copyOf(variables);
        }

        /** The plan tool a plan calls it by: the name's Azure form ({@code custom--search_the_web}). */
        String toolName() {
            return FunctionNames.toAzure(name);
        }
    }
}
