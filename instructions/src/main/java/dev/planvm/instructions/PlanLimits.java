package dev.planvm.instructions;

import java.util.Locale;

/**
 * How big a plan document may be before the loader refuses it. Plans are untrusted input (an LLM
 * wrote them), so every one of these is checked before the document can cost much memory or time;
 * a violation is an error {@link Diagnostic} that refuses the plan, never an exception.
 *
 * <p>The defaults are far above any real plan (the 954 plans of the StackVM corpus are at most
 * 12 KB, 6 levels deep and 27 instructions long) and low enough that a hostile one stays cheap: a
 * 5 MiB document parses to at most a few million JSON nodes.
 *
 * <pre>{@code
 * PlanLoader loader = new PlanLoader().withLimits(PlanLimits.DEFAULT.withMaxInstructions(500));
 * }</pre>
 *
 * @param maxBytes        the largest plan document, in bytes of UTF-8; a larger file is refused
 *                        before it is read to the end
 * @param maxDepth        the deepest nesting of JSON arrays and objects ({@code [[1]]} is 2 levels)
 * @param maxInstructions the most instructions one plan may have
 */
public record PlanLimits(long maxBytes, int maxDepth, int maxInstructions) {

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    /** The deepest nesting a limit may allow: Jackson writes no JSON deeper than this. */
    public static final int MAX_DEPTH = 1000;

    /** 5 MiB, 64 levels, 10,000 instructions. */
    public static final PlanLimits DEFAULT = new PlanLimits(5 * MIB, 64, 10_000);

    public PlanLimits {
        if (maxBytes < 1 || maxDepth < 1 || maxInstructions < 1) {
            throw new IllegalArgumentException("plan limits must be at least 1, not " + maxBytes + " bytes, " + maxDepth
                    + " levels, " + maxInstructions + " instructions");
        }
        if (maxBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a plan cannot be larger than 2 GiB");
        }
        if (maxDepth > MAX_DEPTH) {
            throw new IllegalArgumentException("JSON deeper than " + MAX_DEPTH + " levels cannot be written back"
                    + " (traces, digests), so " + maxDepth + " levels cannot be allowed");
        }
    }

    public PlanLimits withMaxBytes(long bytes) {
        return new PlanLimits(bytes, maxDepth, maxInstructions);
    }

    public PlanLimits withMaxDepth(int depth) {
        return new PlanLimits(maxBytes, depth, maxInstructions);
    }

    public PlanLimits withMaxInstructions(int instructions) {
        return new PlanLimits(maxBytes, maxDepth, instructions);
    }

    /** The byte limit for people: {@code 5 MiB}, {@code 64 KiB} or {@code 1,000 bytes}. */
    String describeMaxBytes() {
        return bytes(maxBytes);
    }

    static String bytes(long n) {
        if (n >= MIB && n % MIB == 0) {
            return n / MIB + " MiB";
        }
        if (n >= KIB && n % KIB == 0) {
            return n / KIB + " KiB";
        }
        return count(n) + (n == 1 ? " byte" : " bytes");
    }

    /** {@code 10000} as {@code 10,000}. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
