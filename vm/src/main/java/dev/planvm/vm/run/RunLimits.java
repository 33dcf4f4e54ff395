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
 * of kilobytes) and keep a hostile plan within a few tens of megabytes per value.
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
 */
public record RunLimits(int maxStringLength, long maxValueSize, int maxValueDepth) {

    /** 1,000,000 characters per string, 5 MiB and 500 levels per variable. */
    public static final RunLimits DEFAULT = new RunLimits(Interpolator.DEFAULT_MAX_STRING_LENGTH, 5L * 1024 * 1024, 500);

    public RunLimits {
        if (maxStringLength < 1 || maxValueSize < 1 || maxValueDepth < 1) {
            throw new IllegalArgumentException("run limits must be at least 1, not " + maxStringLength + " characters, "
                    + maxValueSize + " per value, " + maxValueDepth + " levels");
        }
    }

    public RunLimits withMaxStringLength(int length) {
        return new RunLimits(length, maxValueSize, maxValueDepth);
    }

    public RunLimits withMaxValueSize(long size) {
        return new RunLimits(maxStringLength, size, maxValueDepth);
    }

    public RunLimits withMaxValueDepth(int depth) {
        return new RunLimits(maxStringLength, maxValueSize, depth);
    }

    /** Fails the step when {@code value} is too large or too deep to be variable {@code name}. */
    public void checkVariable(String name, JsonNode value) {
        if (value.isTextual()) {
            int length = value.textValue().length();
            if (length > maxValueSize) {
                throw new StepFailure("the value for '" + name + "' is text of " + count(length)
                        + " characters; the limit for one variable is " + count(maxValueSize));
            }
            return;
        }
        if (!value.isContainerNode()) {
            return;
        }
        ValueSize size = ValueSize.of(value, maxValueSize, maxValueDepth);
        if (size.depth() > maxValueDepth) {
            throw new StepFailure("the value for '" + name + "' is nested deeper than " + count(maxValueDepth)
                    + " levels, the limit for one variable");
        }
        if (size.size() > maxValueSize) {
            throw new StepFailure("the value for '" + name + "' is larger than " + count(maxValueSize)
                    + " (characters of text and keys, plus one per other value), the limit for one variable");
        }
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
