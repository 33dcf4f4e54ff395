package dev.planvm.dialects;

/**
 * How big a dialect source may be before the compiler refuses it; dialect plans are untrusted
 * (an LLM wrote them), so each limit is checked before it can cost much memory or time, and a
 * violation is a located error, never an exception.
 *
 * @param maxBytes        the largest source, in bytes of UTF-8 (the plan limit: 5 MiB)
 * @param maxNesting      the deepest nesting of expressions and YAML collections
 * @param maxAliases      the most aliases one plan may define
 * @param maxInstructions the most instructions a plan may compile to (the plan limit)
 */
public record DialectLimits(long maxBytes, int maxNesting, int maxAliases, int maxInstructions) {

    /** 5 MiB, 48 levels, 10,000 aliases, 10,000 instructions: the plan loader's defaults. */
    public static final DialectLimits DEFAULT = new DialectLimits(5L * 1024 * 1024, 48, 10_000, 10_000);

    public DialectLimits {
        if (maxBytes < 1 || maxNesting < 1 || maxAliases < 1 || maxInstructions < 1) {
            throw new IllegalArgumentException("dialect limits must be at least 1");
        }
        if (maxBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a plan cannot be larger than 2 GiB");
        }
        if (maxNesting > 200) {
            throw new IllegalArgumentException("nesting deeper than 200 levels cannot be allowed");
        }
    }

    public DialectLimits withMaxBytes(long bytes) {
        return new DialectLimits(bytes, maxNesting, maxAliases, maxInstructions);
    }

    public DialectLimits withMaxNesting(int nesting) {
        return new DialectLimits(maxBytes, nesting, maxAliases, maxInstructions);
    }

    public DialectLimits withMaxAliases(int aliases) {
        return new DialectLimits(maxBytes, maxNesting, aliases, maxInstructions);
    }

    public DialectLimits withMaxInstructions(int instructions) {
        return new DialectLimits(maxBytes, maxNesting, maxAliases, instructions);
    }
}
