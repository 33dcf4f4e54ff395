package dev.planvm.cli;

import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.vm.PlanVmBuilder;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The options that decide which tools may be called and how calls are retried and timed out:
 * shared by {@code run} and {@code batch}.
 */
final class CallPolicyOptions {

    @CommandLine.Mixin
    private ToolPolicyOptions tools;

    @CommandLine.Option(
            names = "--approve-tools",
            paramLabel = "GLOBS",
            split = ",",
            description =
                    "Tools whose every call needs a reviewer's approval (globs, e.g. 'send_*'); also approveTools in "
                            + "the tools configuration. On a terminal, run asks; otherwise the run stops waiting (exit 3) and "
                            + "planvm approve RUN continues it. Comma-separated, repeatable.")
    private List<String> approveTools = List.of();

    @CommandLine.Option(
            names = "--retries",
            paramLabel = "N",
            description = "Attempts in all for a call that fails with a retriable error (429, 5xx, timeout, I/O); "
                    + "1 = no retry (default: 3).")
    private Integer retries;

    @CommandLine.Option(
            names = "--retry-backoff",
            paramLabel = "MS",
            description =
                    "The wait before the second attempt in milliseconds, doubled for each further one, with jitter "
                            + "(default: 500; at most 8000 unless MS is larger).")
    private Long retryBackoff;

    @CommandLine.Option(
            names = "--call-timeout",
            paramLabel = "SECONDS",
            description =
                    "The longest one attempt of a call may take; a slower one is interrupted and retried (default: no limit).")
    private String callTimeout;

    @CommandLine.Option(
            names = "--tool-retries",
            paramLabel = "TOOL=N",
            description = "Attempts in all for calls of TOOL, instead of --retries. Repeatable.")
    private Map<String, Integer> toolRetries = Map.of();

    @CommandLine.Option(
            names = "--tool-timeout",
            paramLabel = "TOOL=SECONDS",
            description =
                    "The longest one attempt of a call of TOOL may take, instead of --call-timeout; 0: no limit. Repeatable.")
    private Map<String, String> toolTimeouts = Map.of();

    /** The {@code --allow-tools} / {@code --deny-tools} policy. */
    ToolPolicy toolPolicy(CommandLine commandLine) {
        return tools.policy(commandLine);
    }

    /** The {@code --allow-tools} and {@code --deny-tools} globs, blanks dropped. */
    ToolPolicyOptions tools() {
        return tools;
    }

    /** The retry policy of {@code --retries} and {@code --retry-backoff}; a bad value is a usage error. */
    RetryPolicy retryPolicy(CommandLine commandLine) {
        RetryPolicy policy = RetryPolicy.DEFAULT;
        if (retries != null) {
            policy = policy.withMaxAttempts(attempts("--retries " + retries, retries, commandLine));
        }
        if (retryBackoff != null) {
            if (retryBackoff < 0) {
                throw new CommandLine.ParameterException(commandLine, "--retry-backoff must not be negative");
            }
            policy = policy.withInitialBackoff(Duration.ofMillis(retryBackoff));
        }
        return policy;
    }

    /** The retry policies of {@code --tool-retries}, tool name to policy, in the order given. */
    Map<String, RetryPolicy> toolRetries(CommandLine commandLine) {
        RetryPolicy policy = retryPolicy(commandLine);
        Map<String, RetryPolicy> policies = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> tool : toolRetries.entrySet()) {
            String option = "--tool-retries " + tool.getKey() + "=" + tool.getValue();
            policies.put(tool.getKey(), policy.withMaxAttempts(attempts(option, tool.getValue(), commandLine)));
        }
        return policies;
    }

    /** The {@code --call-timeout}, or {@code null}: no limit. */
    Duration callTimeout(CommandLine commandLine) {
        return callTimeout == null ? null : seconds("--call-timeout " + callTimeout, callTimeout, false, commandLine);
    }

    /** The {@code --tool-timeout}s, tool name to timeout (zero: no limit), in the order given. */
    Map<String, Duration> toolTimeouts(CommandLine commandLine) {
        Map<String, Duration> timeouts = new LinkedHashMap<>();
        for (Map.Entry<String, String> tool : toolTimeouts.entrySet()) {
            String option = "--tool-timeout " + tool.getKey() + "=" + tool.getValue();
            timeouts.put(tool.getKey(), seconds(option, tool.getValue(), true, commandLine));
        }
        return timeouts;
    }

    /** Applies the options to a VM builder; a bad value is a usage error (exit 2). */
    PlanVmBuilder applyTo(PlanVmBuilder builder, CommandLine commandLine) {
        builder.toolPolicy(tools.policy(commandLine));
        List<String> approve = new ArrayList<>();
        approveTools.stream().map(String::strip).filter(glob -> !glob.isEmpty()).forEach(approve::add);
        try {
            builder.approveTools(approve);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--approve-tools: " + e.getMessage());
        }
        builder.retryPolicy(retryPolicy(commandLine));
        toolRetries(commandLine).forEach(builder::retryPolicy);
        Duration timeout = callTimeout(commandLine);
        if (timeout != null) {
            builder.callTimeout(timeout);
        }
        toolTimeouts(commandLine).forEach(builder::callTimeout);
        return builder;
    }

    /** The globs of a comma-separated option, blanks around them and empty ones dropped. */
    private static int attempts(String option, int value, CommandLine commandLine) {
        if (value < 1) {
            throw new CommandLine.ParameterException(
                    commandLine, option + ": attempts must be at least 1 (1 = no retry)");
        }
        return value;
    }

    /** A number of seconds (decimals allowed); positive, or zero when {@code zeroAllowed}. */
    private static Duration seconds(String option, String text, boolean zeroAllowed, CommandLine commandLine) {
        try {
            BigDecimal value = new BigDecimal(text.strip());
            if (value.signum() > 0 || (zeroAllowed && value.signum() == 0)) {
                return Duration.ofMillis(value.movePointRight(3)
                        .setScale(0, RoundingMode.CEILING)
                        .longValueExact());
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // the message below
        }
        throw new CommandLine.ParameterException(
                commandLine,
                option + ": expected a " + (zeroAllowed ? "" : "positive ") + "number of seconds"
                        + (zeroAllowed ? " (0: no limit)" : ""));
    }
}
