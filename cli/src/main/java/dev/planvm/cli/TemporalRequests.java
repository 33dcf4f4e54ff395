package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanToolSource;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.cassette.Cassette;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
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
    static List<String> secretNames(VmOptions vm, CommandLine commandLine) {
        List<String> names = new ArrayList<>();
        for (String secret : vm.settings().secretArguments()) {
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

    /**
     * The run settings the command's options describe, read from the typed options (the values a local run
     * applies to its VM; already checked by {@link #check}).
     */
    static RunSettings settings(VmOptions vm, CommandLine commandLine) {
        CallPolicyOptions calls = vm.policy();
        return RunSettings.builder()
                .maxSteps(vm.settings().maxSteps())
                .strict(vm.settings().strict())
                .concurrency(vm.concurrency().sequential(), vm.concurrency().maxInFlight())
                .retries(
                        calls.retryPolicy(commandLine),
                        calls.toolRetries(commandLine),
                        RetrySettings.DEFAULT_MAX_RETRY_AFTER)
                .timeouts(calls.callTimeout(commandLine), calls.toolTimeouts(commandLine))
                .toolPolicy(calls.tools().allowTools(), calls.tools().denyTools())
                .build();
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
        return request.toBuilder()
                .clock(fixed.now().toString(), fixed.zone().getId())
                .build();
    }

    /** What {@code --now} and {@code --tz} do to a run's clock, or {@code null} when neither was given. */
    static UnaryOperator<RunClock> clockOptions(VmOptions vm, CommandLine commandLine) {
        return vm.clock().given() ? vm.clock().adjust(commandLine) : null;
    }

    /** The plan tools as the workflow gets them: each plan's document (StackVM JSON, a dialect's compiled). */
    static List<PlanToolSource> planTools(List<dev.planvm.instructions.Plan> plans) {
        List<PlanToolSource> sources = new ArrayList<>();
        plans.forEach(plan ->
                sources.add(new PlanToolSource(plan.source(), plan.document().toString())));
        return sources;
    }

    static PlanRequest request(
            String source, String plan, Map<String, JsonNode> inputs, List<String> secrets, RunSettings settings) {
        return PlanRequest.builder(source, plan, inputs)
                .secrets(secrets)
                .settings(settings)
                .build();
    }
}
