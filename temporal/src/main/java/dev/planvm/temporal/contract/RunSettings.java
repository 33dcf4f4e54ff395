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
 * declares, which wins over the defaults. Build with {@link #defaults()} and the {@code with}
 * methods.
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

    public RunSettings withMaxSteps(int steps) {
        return new RunSettings(
                steps,
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

    public RunSettings withStrict(boolean on) {
        return new RunSettings(
                maxSteps,
                on,
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

    /** Sequential (every call waits for its turn) or, by default, independent calls as concurrent activities. */
    public RunSettings withConcurrency(boolean sequentialRun, int inFlight) {
        return new RunSettings(
                maxSteps,
                strict,
                sequentialRun,
                inFlight,
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

    public RunSettings withLimits(RunLimits limits) {
        return new RunSettings(
                maxSteps,
                strict,
                sequential,
                maxInFlight,
                limits.maxStringLength(),
                limits.maxValueSize(),
                limits.maxValueDepth(),
                retry,
                toolRetries,
                timeoutMs,
                toolTimeoutsMs,
                maxRetryAfterMs,
                allowTools,
                denyTools,
                keepGoing);
    }

    /** The retry policy of every call, per-tool ones, and the longest {@code Retry-After} waited for. */
    public RunSettings withRetries(RetryPolicy policy, Map<String, RetryPolicy> perTool, Duration maxRetryAfter) {
        Map<String, RetrySpec> specs = new LinkedHashMap<>();
        perTool.forEach((tool, p) -> specs.put(tool, RetrySpec.of(p)));
        return new RunSettings(
                maxSteps,
                strict,
                sequential,
                maxInFlight,
                maxStringLength,
                maxValueSize,
                maxValueDepth,
                RetrySpec.of(policy),
                specs,
                timeoutMs,
                toolTimeoutsMs,
                maxRetryAfter.toMillis(),
                allowTools,
                denyTools,
                keepGoing);
    }

    /** The attempt timeout of every call ({@code null}: none) and per-tool ones ({@link Duration#ZERO}: none for that tool). */
    public RunSettings withTimeouts(Duration timeout, Map<String, Duration> perTool) {
        Map<String, Long> millis = new LinkedHashMap<>();
        perTool.forEach((tool, d) -> millis.put(tool, d.toMillis()));
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
                timeout == null ? null : timeout.toMillis(),
                millis,
                maxRetryAfterMs,
                allowTools,
                denyTools,
                keepGoing);
    }

    /** Which tools the plan may call ({@code --allow-tools}, {@code --deny-tools}). */
    public RunSettings withToolPolicy(List<String> allow, List<String> deny) {
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
                allow,
                deny,
                keepGoing);
    }

    /** Whether a failed step lets the run go on with the next one ({@code --keep-going}), as a local run's. */
    public RunSettings withKeepGoing(boolean on) {
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
                on);
    }
}
