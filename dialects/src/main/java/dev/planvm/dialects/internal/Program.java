package dev.planvm.dialects.internal;

import java.util.List;
import java.util.Objects;

/**
 * What a front end reads from a dialect source: named aliases and the plan's result, each an
 * unresolved expression. The {@link Backend} turns it into StackVM JSON.
 *
 * @param aliases the aliases in source order (names unique, each a valid plan variable name)
 * @param result  the result ({@code result} alias, {@code return} statement)
 * @param resultIsAlias whether other aliases can name the result ({@code result} in YAML)
 */
public record Program(List<AliasDef> aliases, AliasDef result, boolean resultIsAlias) {

    public Program {
        aliases = List.copyOf(aliases);
        Objects.requireNonNull(result, "result");
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
