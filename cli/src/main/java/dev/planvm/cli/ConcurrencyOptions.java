package dev.planvm.cli;

import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import java.util.Map;
import picocli.CommandLine;

/** The options that decide how calls overlap: shared by {@code run} and {@code batch}. */
final class ConcurrencyOptions {

    @CommandLine.Option(
            names = "--sequential",
            description =
                    "Start every call at its turn only. By default a call whose inputs are known starts early, so independent calls overlap (same results).")
    private boolean sequential;

    @CommandLine.Option(
            names = "--max-in-flight",
            paramLabel = "N",
            defaultValue = "" + PlanVm.DEFAULT_MAX_IN_FLIGHT,
            description =
                    "The most calls a run and the child runs of its plan tools have in flight at once beside the run's own thread: calls started ahead of their turn and for_each elements (default: ${DEFAULT-VALUE}).")
    private int maxInFlight;

    @CommandLine.Option(
            names = "--tool-concurrency",
            paramLabel = "TOOL=N",
            description =
                    "The most calls of TOOL running at once, across all runs (e.g. llm_generate=4): a hard ceiling for its adaptive limit. Repeatable.")
    private Map<String, Integer> toolConcurrency = Map.of();

    @CommandLine.Option(
            names = "--adaptive-limits",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description =
                    "Let each tool's concurrency limit adapt: start wide, grow while calls answer in steady time, shrink on 429, 503, Retry-After, timeouts and growing latency (default). --no-adaptive-limits: only --tool-concurrency limits apply, fixed.")
    private boolean adaptiveLimits = true;

    /** Whether {@code --sequential} was given. */
    boolean sequential() {
        return sequential;
    }

    /** The {@code --max-in-flight} limit. */
    int maxInFlight() {
        return maxInFlight;
    }

    /** Applies the options to a VM builder; a bad value is a usage error. */
    PlanVmBuilder applyTo(PlanVmBuilder builder, CommandLine commandLine) {
        if (maxInFlight < 1) {
            throw new CommandLine.ParameterException(commandLine, "--max-in-flight must be at least 1");
        }
        builder.sequential(sequential).maxInFlightPerRun(maxInFlight).adaptiveConcurrency(adaptiveLimits);
        for (Map.Entry<String, Integer> limit : toolConcurrency.entrySet()) {
            if (limit.getValue() < 1) {
                throw new CommandLine.ParameterException(
                        commandLine,
                        "--tool-concurrency " + limit.getKey() + "=" + limit.getValue()
                                + ": the limit must be at least 1");
            }
            builder.toolConcurrency(limit.getKey(), limit.getValue());
        }
        return builder;
    }
}
