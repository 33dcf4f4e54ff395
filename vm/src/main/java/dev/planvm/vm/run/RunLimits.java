package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.expr.Interpolator;
import dev.planvm.instructions.expr.ValueSize;
import java.util.Locale;

/**
 * How much memory one run's values may take. A plan is untrusted and a {@code jmp} loop can double
 * a value at every pass, so each limit fails the step that would pass it, through the normal step
 * failure (the run reports the {@code seq_no}, the type and a sentence naming the limit). The total
 * number of steps is limited separately ({@code PlanVmBuilder.maxSteps}).
 *
 * <p>The defaults are far above what real plans produce (LLM answers and search results are tens
 * of kilobytes) and keep a hostile plan within a few tens of megabytes per value, and within
 * {@link #maxRunSize()} for the whole run: the values of its live variables (a value replaced
 * stops counting) plus what the run keeps for its trace or recorded cassette (every step's inputs
 * and writes), all measured as {@link ValueSize} counts them.
 *
 * <pre>{@code
 * PlanVm vm = PlanVm.builder().runLimits(RunLimits.DEFAULT.withMaxStringLength(200_000)).build();
 * }</pre>
 *
 * @param maxStringLength the longest string (UTF-16 characters) one interpolation may build: a
 *                        template of text and references, or a single {@code ${expr}} that
 *                        computes text; default 1,000,000
 * @param maxValueSize    the largest value one variable may hold, as {@link ValueSize} counts it
 *                        (characters of text and keys, plus one per other value); default 5 MiB
 *                        (5,242,880)
 * @param maxValueDepth   the deepest nesting of arrays and objects in one variable; default 500,
 *                        so values can always be written as JSON (Jackson refuses more than 1,000
 *                        levels) and walked by recursive code
 * @param maxRunSize      the most one run may hold at once: its live variables plus what it keeps
 *                        for its trace or recorded cassette, as {@link ValueSize} counts them;
 *                        default 64 MiB (67,108,864)
 */
public record RunLimits(int maxStringLength, long maxValueSize, int maxValueDepth, long maxRunSize) {

    /** The default of {@link #maxRunSize()}: 64 MiB. */
    public static final long DEFAULT_MAX_RUN_SIZE = 64L * 1024 * 1024;

    /** 1,000,000 characters per string, 5 MiB and 500 levels per variable, 64 MiB per run. */
    public static final RunLimits DEFAULT =
            new RunLimits(Interpolator.DEFAULT_MAX_STRING_LENGTH, 5L * 1024 * 1024, 500);

    public RunLimits {
        if (maxStringLength < 1 || maxValueSize < 1 || maxValueDepth < 1 || maxRunSize < 1) {
            throw new IllegalArgumentException("run limits must be at least 1, not " + maxStringLength + " characters, "
                    + maxValueSize + " per value, " + maxValueDepth + " levels, " + maxRunSize + " per run");
        }
    }

    /** Limits with the default {@link #maxRunSize()} of 64 MiB. */
    public RunLimits(int maxStringLength, long maxValueSize, int maxValueDepth) {
        this(maxStringLength, maxValueSize, maxValueDepth, DEFAULT_MAX_RUN_SIZE);
    }

    public RunLimits withMaxStringLength(int length) {
        return new RunLimits(length, maxValueSize, maxValueDepth, maxRunSize);
    }

    public RunLimits withMaxValueSize(long size) {
        return new RunLimits(maxStringLength, size, maxValueDepth, maxRunSize);
    }

    public RunLimits withMaxValueDepth(int depth) {
        return new RunLimits(maxStringLength, maxValueSize, depth, maxRunSize);
    }

    public RunLimits withMaxRunSize(long size) {
        return new RunLimits(maxStringLength, maxValueSize, maxValueDepth, size);
    }

    /**
     * Fails the step when {@code value} is too large or too deep to be variable {@code name};
     * returns its size as {@link ValueSize} counts it.
     */
    public long checkVariable(String name, JsonNode value) {
        return checkValue("the value for '" + name + "'", "one variable", value);
    }

    /**
     * Fails the step when {@code value} — what a step hands out: {@code what}, e.g. "the params of
     * tool 'x'" — is larger or deeper than one variable may be; returns its size.
     */
    public long checkValue(String what, JsonNode value) {
        return checkValue(what, "one value", value);
    }

    private long checkValue(String what, String unit, JsonNode value) {
        if (value.isTextual()) {
            int length = value.textValue().length();
            if (length > maxValueSize) {
                throw new LimitReached(what + " is text of " + count(length) + " characters; the limit for " + unit
                        + " is " + count(maxValueSize));
            }
            return length;
        }
        if (!value.isContainerNode()) {
            return 1;
        }
        ValueSize size = ValueSize.of(value, maxValueSize, maxValueDepth);
        if (size.depth() > maxValueDepth) {
            throw new LimitReached(
                    what + " is nested deeper than " + count(maxValueDepth) + " levels, the limit for " + unit);
        }
        if (size.size() > maxValueSize) {
            throw new LimitReached(what + " is larger than " + count(maxValueSize)
                    + " (characters of text and keys, plus one per other value), the limit for " + unit);
        }
        return size.size();
    }

    /** A size for people: {@code 64 MiB}, {@code 60.5 MiB}, {@code 512 KiB}, or {@code 1,000} (as {@link ValueSize} counts). */
    public static String describeSize(long size) {
        long mib = 1024L * 1024;
        if (size >= mib) {
            return size % mib == 0 ? size / mib + " MiB" : String.format(Locale.ROOT, "%.1f MiB", size / (double) mib);
        }
        if (size >= 1024) {
            return size % 1024 == 0 ? size / 1024 + " KiB" : String.format(Locale.ROOT, "%.1f KiB", size / 1024.0);
        }
        return count(size);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
