package dev.planvm.dialects.internal;

import java.util.List;
import java.util.Objects;

/**
 * What a front end reads from a dialect source: named aliases and the plan's result, each an
 * unresolved expression. The {@link Backend} turns it into StackVM JSON.
 *
 * @param aliases the aliases in source order (names unique, each a valid plan variable name)
 * @param result  the result ({@code result} alias, {@code return} or {@code use} statement)
 * @param resultIsAlias whether other aliases can name the result ({@code result} in YAML)
 * @param use     the result is handed back to the LLM that wrote the plan (seed 001's {@code use EXPR;},
 *                compiled to the variable {@code use} set to {@code true} after {@code final_answer})
 */
public record Program(List<AliasDef> aliases, AliasDef result, boolean resultIsAlias, boolean use) {

    public Program {
        aliases = List.copyOf(aliases);
        Objects.requireNonNull(result, "result");
    }

    /** A program whose result is returned ({@code return}), not handed back. */
    public Program(List<AliasDef> aliases, AliasDef result, boolean resultIsAlias) {
        this(aliases, result, resultIsAlias, false);
    }

    /**
     * One alias definition.
     *
     * @param name the alias (for the result, {@code result} or {@code return})
     * @param pos  where it is defined
     * @param body its expression
     */
    public record AliasDef(String name, Pos pos, Ast body) {
        public AliasDef {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(pos, "pos");
            Objects.requireNonNull(body, "body");
        }
    }
}
