package dev.planvm.dialects;

import java.util.Objects;
import java.util.Set;

/**
 * Choices that shape how a dialect plan compiles.
 *
 * @param singleDomainResult     YAML: an alias with one domain takes that call's result itself,
 *                               not {@code {domain: result}} (seed 000's first shortcut; on by default)
 * @param unwrapSingleElement    YAML: a domain call that returns an array of exactly one element
 *                               gives that element (seed 000's second shortcut; on by default)
 * @param tools                  JavaScript: the tools a plan may call, each by its identifier (a tool named
 *                               {@code web:search} is called {@code web_search(...)}); null: any function
 *                               that is not a builtin or a date/time helper is taken for a tool, and the
 *                               run finds out whether it exists
 * @param inputs                 names the run provides as variables ({@code --var name=...}) that plans may read
 * @param limits                 size bounds
 */
public record DialectOptions(
        boolean singleDomainResult,
        boolean unwrapSingleElement,
        Set<String> tools,
        Set<String> inputs,
        DialectLimits limits) {

    /** Both shortcuts on, any tool, no inputs, default limits. */
    public static final DialectOptions DEFAULT = new DialectOptions(true, true, null, Set.of(), DialectLimits.DEFAULT);

    public DialectOptions {
        tools = tools == null ? null : Set.copyOf(tools);
        inputs = Set.copyOf(inputs);
        Objects.requireNonNull(limits, "limits");
    }

    public DialectOptions withSingleDomainResult(boolean on) {
        return new DialectOptions(on, unwrapSingleElement, tools, inputs, limits);
    }

    public DialectOptions withUnwrapSingleElement(boolean on) {
        return new DialectOptions(singleDomainResult, on, tools, inputs, limits);
    }

    /** Only these tools may be called (null: any). */
    public DialectOptions withTools(Set<String> names) {
        return new DialectOptions(singleDomainResult, unwrapSingleElement, names, inputs, limits);
    }

    public DialectOptions withInputs(Set<String> names) {
        return new DialectOptions(singleDomainResult, unwrapSingleElement, tools, names, limits);
    }

    public DialectOptions withLimits(DialectLimits newLimits) {
        return new DialectOptions(singleDomainResult, unwrapSingleElement, tools, inputs, newLimits);
    }
}
