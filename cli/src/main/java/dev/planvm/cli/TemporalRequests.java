package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * The run options of {@code run} and {@code batch} as a Temporal plan request: the same options, on
 * the wire. Options that belong to the workers (tools, tool concurrency) or to a local store are
 * refused with {@code --temporal}, and {@code --secret} names secrets the workers hold.
 */
final class TemporalRequests {

    /** Options that make no sense with --temporal, and why. */
    private static final Map<String, String> LOCAL_ONLY = Map.of(
            "--store", "the Temporal server keeps the run",
            "--no-store", "the Temporal server keeps the run",
            "--durability", "the Temporal server keeps the run",
            "--max-store-bytes", "the Temporal server keeps the run",
            "--config", "the workers hold the tools (planvm worker --config)",
            "--tools-path", "the workers hold the tools (planvm worker --tools-path)",
            "--tool-concurrency", "the workers bound their tools (planvm worker --tool-concurrency)",
            "--replay-timing", "a workflow does not sleep through recorded durations");

    private TemporalRequests() {}

    /** Refuses local-only options and checks the rest as a local run would (usage errors, exit 2). */
    static void check(VmOptions vm, CommandLine commandLine) {
        CommandLine.ParseResult parsed = commandLine.getParseResult();
        LOCAL_ONLY.forEach((option, why) -> {
            if (parsed.hasMatchedOption(option)) {
                throw new CommandLine.ParameterException(
                        commandLine, option + " cannot be used with --temporal: " + why);
            }
        });
        vm.check(commandLine);
    }

    /**
     * The {@code --secret} names: with {@code --temporal} they name secrets the workers hold; a value
     * given here is refused, so it never travels to the server.
     */
    static List<String> secretNames(CommandLine commandLine) {
        List<String> names = new ArrayList<>();
        for (String secret : commandLine.getParseResult().matchedOptionValue("--secret", List.<String>of())) {
            if (secret.contains("=") || !secret.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new CommandLine.ParameterException(
                        commandLine,
                        "--secret " + secret.split("=", 2)[0]
                                + ": with --temporal, --secret names a secret the workers hold; give its value to planvm worker"
                                + " (--secret NAME=VALUE, or the environment variable NAME there)");
            }
            names.add(secret);
        }
        return names;
    }

    /** The run settings the command's options describe (already checked by {@link #check}). */
    @SuppressWarnings("unchecked")
    static RunSettings settings(CommandLine commandLine) {
        CommandLine.ParseResult parsed = commandLine.getParseResult();
        RunSettings settings = RunSettings.defaults()
                .withMaxSteps(parsed.matchedOptionValue("--max-steps", PlanVm.DEFAULT_MAX_STEPS))
                .withStrict(parsed.hasMatchedOption("--strict"))
                .withConcurrency(
                        parsed.hasMatchedOption("--sequential"),
                        parsed.matchedOptionValue("--max-in-flight", PlanVm.DEFAULT_MAX_IN_FLIGHT));
        RetryPolicy policy = RetryPolicy.DEFAULT;
        Integer retries = parsed.matchedOptionValue("--retries", null);
        if (retries != null) {
            policy = policy.withMaxAttempts(retries);
        }
        Long backoff = parsed.matchedOptionValue("--retry-backoff", null);
        if (backoff != null) {
            policy = policy.withInitialBackoff(Duration.ofMillis(backoff));
        }
        Map<String, RetryPolicy> toolRetries = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> tool : parsed.matchedOptionValue("--tool-retries", Map.<String, Integer>of())
                .entrySet()) {
            toolRetries.put(tool.getKey(), policy.withMaxAttempts(tool.getValue()));
        }
        settings = settings.withRetries(policy, toolRetries, RetrySettings.DEFAULT_MAX_RETRY_AFTER);
        String timeout = parsed.matchedOptionValue("--call-timeout", null);
        Map<String, Duration> toolTimeouts = new LinkedHashMap<>();
        for (Map.Entry<String, String> tool : parsed.matchedOptionValue("--tool-timeout", Map.<String, String>of())
                .entrySet()) {
            toolTimeouts.put(tool.getKey(), seconds(tool.getValue()));
        }
        settings = settings.withTimeouts(timeout == null ? null : seconds(timeout), toolTimeouts);
        return settings.withToolPolicy(
                globs(parsed.matchedOptionValue("--allow-tools", List.<String>of())),
                globs(parsed.matchedOptionValue("--deny-tools", List.<String>of())));
    }

    /**
     * A plan file loaded as every command loads it (YAML and JavaScript compiled), with these inputs
     * declared.
     */
    static LoadResult load(Path file, Set<String> inputs) {
        return PlanInput.sources(new PlanLoader(), inputs).load(file);
    }

    /** The plan as its workflow gets it: a JSON plan's own text, a YAML or JavaScript plan compiled to StackVM JSON. */
    static String planText(Path file, LoadResult loaded) throws IOException {
        return PlanSources.isDialectFile(file.toString())
                ? loaded.plan().document().toString()
                : Files.readString(file);
    }

    /**
     * {@code request} with the run's clock when {@code --now} or {@code --tz} was given ({@code adjust} not
     * null): they change the clock the run would otherwise get — a replayed cassette's, else this machine's
     * now and zone — as they do for a local run. Without them the workflow's own time decides.
     */
    static PlanRequest clocked(PlanRequest request, UnaryOperator<RunClock> adjust, Cassette replayed) {
        if (adjust == null) {
            return request;
        }
        RunClock base = replayed != null && replayed.clock() != null
                ? new RunClock(replayed.clock().now(), replayed.clock().zone())
                : RunClock.of(Clock.systemDefaultZone());
        RunClock fixed = adjust.apply(base);
        return request.withClock(fixed.now().toString(), fixed.zone().getId());
    }

    /** What {@code --now} and {@code --tz} do to a run's clock, or {@code null} when neither was given. */
    static UnaryOperator<RunClock> clockOptions(VmOptions vm, CommandLine commandLine) {
        return vm.clock().given() ? vm.clock().adjust(commandLine) : null;
    }

    static PlanRequest request(
            String source, String plan, Map<String, JsonNode> inputs, List<String> secrets, RunSettings settings) {
        return PlanRequest.live(source, plan, inputs).withSecrets(secrets).withSettings(settings);
    }

    private static Duration seconds(String text) {
        return Duration.ofMillis(new BigDecimal(text.strip())
                .movePointRight(3)
                .setScale(0, RoundingMode.CEILING)
                .longValueExact());
    }

    private static List<String> globs(List<String> values) {
        List<String> rules = new ArrayList<>();
        for (String value : values) {
            if (!value.strip().isEmpty()) {
                rules.add(value.strip());
            }
        }
        return rules;
    }
}
