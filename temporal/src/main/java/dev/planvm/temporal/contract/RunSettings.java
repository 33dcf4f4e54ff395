package dev.planvm.temporal.contract;

import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunLimits;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a plan runs in its workflow: the settings a local run takes from {@code PlanVm.builder()},
 * on the wire. Per-tool retries and timeouts given here win over what a tool's configuration
 * declares, which wins over the defaults. Build with {@link #builder()} (or change a copy with {@link
 * #toBuilder()}).
 *
 * @param timeoutMs      the attempt timeout of every call, or {@code null} for none
 * @param toolTimeoutsMs per-tool attempt timeouts; 0 means no limit for that tool
 * @param allowTools     {@code --allow-tools} globs
 * @param denyTools      {@code --deny-tools} globs
 * @param keepGoing      whether a failed step lets the run go on with the next step ({@code --keep-going}): the
 *                       response lists every such step; {@code false} when a request from before this field
 *                       leaves it out
 */
public record RunSettings(
        int maxSteps,
        boolean strict,
        boolean sequential,
        int maxInFlight,
        int maxStringLength,
        long maxValueSize,
        int maxValueDepth,
        RetrySpec retry,
        Map<String, RetrySpec> toolRetries,
        Long timeoutMs,
        Map<String, Long> toolTimeoutsMs,
        long maxRetryAfterMs,
        List<String> allowTools,
        List<String> denyTools,
        boolean keepGoing) {

    public RunSettings {
        if (maxSteps < 1 || maxInFlight < 1) {
            throw new IllegalArgumentException("maxSteps and maxInFlight must be at least 1");
        }
        new RunLimits(maxStringLength, maxValueSize, maxValueDepth); // checks them
        retry = retry == null ? RetrySpec.of(RetryPolicy.DEFAULT) : retry;
        toolRetries = toolRetries == null ? Map.of() : Map.copyOf(toolRetries);
        if (timeoutMs != null && timeoutMs <= 0) {
            throw new IllegalArgumentException("the call timeout must be positive");
        }
        toolTimeoutsMs = toolTimeoutsMs == null ? Map.of() : Map.copyOf(toolTimeoutsMs);
        allowTools = allowTools == null ? List.of() : List.copyOf(allowTools);
        denyTools = denyTools == null ? List.of() : List.copyOf(denyTools);
    }

    /** The defaults of a local run: 1,000 steps, dataflow concurrency (8 in flight), 3 attempts, no timeout. */
    public static RunSettings defaults() {
        RunLimits limits = RunLimits.DEFAULT;
        return new RunSettings(
                PlanVm.DEFAULT_MAX_STEPS,
                false,
                false,
                PlanVm.DEFAULT_MAX_IN_FLIGHT,
                limits.maxStringLength(),
                limits.maxValueSize(),
                limits.maxValueDepth(),
                RetrySpec.of(RetryPolicy.DEFAULT),
                Map.of(),
                null,
                Map.of(),
                RetrySettings.DEFAULT_MAX_RETRY_AFTER.toMillis(),
                List.of(),
                List.of(),
                false);
    }

    public RunLimits limits() {
        return new RunLimits(maxStringLength, maxValueSize, maxValueDepth);
    }

    /** A builder starting from {@link #defaults()}: set what differs, then {@link Builder#build()}. */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Settings changed a few at a time, in the units a local run's options use (durations, {@link RetryPolicy},
     * {@link RunLimits}): a record of 15 components gets one builder rather than eight withers each repeating every
     * argument. The settings are checked together when built.
     */
    public static final class Builder {
        private int maxSteps;
        private boolean strict;
        private boolean sequential;
        private int maxInFlight;
        private int maxStringLength;
        private long maxValueSize;
        private int maxValueDepth;
        private RetrySpec retry;
        private Map<String, RetrySpec> toolRetries;
        private Long timeoutMs;
        private Map<String, Long> toolTimeoutsMs;
        private long maxRetryAfterMs;
        private List<String> allowTools;
        private List<String> denyTools;
        private boolean keepGoing;

        private Builder(RunSettings from) {
            this.maxSteps = from.maxSteps;
            this.strict = from.strict;
            this.sequential = from.sequential;
            this.maxInFlight = from.maxInFlight;
            this.maxStringLength = from.maxStringLength;
            this.maxValueSize = from.maxValueSize;
            this.maxValueDepth = from.maxValueDepth;
            this.retry = from.retry;
            this.toolRetries = from.toolRetries;
            this.timeoutMs = from.timeoutMs;
            this.toolTimeoutsMs = from.toolTimeoutsMs;
            this.maxRetryAfterMs = from.maxRetryAfterMs;
            this.allowTools = from.allowTools;
            this.denyTools = from.denyTools;
            this.keepGoing = from.keepGoing;
        }

        /** The most steps a run takes. */
        public Builder maxSteps(int steps) {
            this.maxSteps = steps;
            return this;
        }

        /** Strict ({@code --strict}): a run that never sets {@code final_answer} fails instead of returning null. */
        public Builder strict(boolean on) {
            this.strict = on;
            return this;
        }

        /** Sequential (every call waits for its turn) or, by default, independent calls as concurrent activities. */
        public Builder concurrency(boolean sequentialRun, int inFlight) {
            this.sequential = sequentialRun;
            this.maxInFlight = inFlight;
            return this;
        }

        /** The bounds of the run's values. */
        public Builder limits(RunLimits limits) {
            this.maxStringLength = limits.maxStringLength();
            this.maxValueSize = limits.maxValueSize();
            this.maxValueDepth = limits.maxValueDepth();
            return this;
        }

        /** The retry policy of every call, per-tool ones, and the longest {@code Retry-After} waited for. */
        public Builder retries(RetryPolicy policy, Map<String, RetryPolicy> perTool, Duration maxRetryAfter) {
            Map<String, RetrySpec> specs = new LinkedHashMap<>();
            perTool.forEach((tool, p) -> specs.put(tool, RetrySpec.of(p)));
            this.retry = RetrySpec.of(policy);
            this.toolRetries = specs;
            this.maxRetryAfterMs = maxRetryAfter.toMillis();
            return this;
        }

        /**
         * The attempt timeout of every call ({@code null}: none) and per-tool ones ({@link Duration#ZERO}: none for
         * that tool).
         */
        public Builder timeouts(Duration timeout, Map<String, Duration> perTool) {
            Map<String, Long> millis = new LinkedHashMap<>();
            perTool.forEach((tool, d) -> millis.put(tool, d.toMillis()));
            this.timeoutMs = timeout == null ? null : timeout.toMillis();
            this.toolTimeoutsMs = millis;
            return this;
        }

        /** Which tools the plan may call ({@code --allow-tools}, {@code --deny-tools}). */
        public Builder toolPolicy(List<String> allow, List<String> deny) {
            this.allowTools = allow;
            this.denyTools = deny;
            return this;
        }

        /** Whether a failed step lets the run go on with the next one ({@code --keep-going}), as a local run's. */
        public Builder keepGoing(boolean on) {
            this.keepGoing = on;
            return this;
        }

        /** The settings, checked: an {@link IllegalArgumentException} says what is wrong. */
        public RunSettings build() {
            return new RunSettings(
                    maxSteps,
                    strict,
                    sequential,
                    maxInFlight,
                    maxStringLength,
                    maxValueSize,
                    maxValueDepth,
                    retry,
                    toolRetries,
                    timeoutMs,
                    toolTimeoutsMs,
                    maxRetryAfterMs,
                    allowTools,
                    denyTools,
                    keepGoing);
        }
    }
}
