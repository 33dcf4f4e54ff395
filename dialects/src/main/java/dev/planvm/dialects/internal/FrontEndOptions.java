package dev.planvm.dialects.internal;

import java.util.Set;

/**
 * What the front ends need of the public {@code DialectOptions}, so that they do not depend on the
 * API package (which depends on them).
 *
 * @param tools null: any function that is not a builtin is taken for a tool
 */
public record FrontEndOptions(
        boolean singleDomainResult,
        boolean unwrapSingleElement,
        Set<String> tools,
        Set<String> inputs,
        int maxNesting,
        int maxAliases,
        int maxInstructions) {
    public FrontEndOptions {
        tools = tools == null ? null : Set.copyOf(tools);
        inputs = Set.copyOf(inputs);
    }
}
