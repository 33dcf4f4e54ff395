package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.AtomicFiles;
import dev.planvm.temporal.TemporalConnection;
import dev.planvm.temporal.TemporalException;
import dev.planvm.temporal.TemporalPlans;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.batch.Batch;
import dev.planvm.vm.batch.BatchReport;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.run.RunStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * {@code batch --temporal}: every plan a workflow, at most {@code --concurrency} waited for at
 * once, reported as a local batch reports them (one JSON line per plan in file order, the summary
 * on stderr). Loaded only when Temporal is on the class path.
 */
final class TemporalBatch {

    /** What the batch's plans share. */
    private record Shared(
            TemporalPlans plans,
            Map<String, JsonNode> inputs,
            List<String> secrets,
            RunSettings settings,
            Path replayDir,
            boolean dryRun,
            boolean dryRunConditions,
            UnaryOperator<RunClock> clock,
            VmOptions vm,
            List<Plan> planTools,
            Integer maxPlanDepth) {}

    private TemporalBatch() {}

    /** Runs the plan files on Temporal; returns the exit code. */
    static int run(
            List<String> files,
            Integer concurrency,
            Path out,
            Path replayDir,
            boolean dryRun,
            boolean dryRunConditions,
            boolean keepGoing,
            VmOptions vmOptions,
            TemporalOptions temporal,
            CommandLine commandLine)
            throws IOException {
        TemporalRequests.check(vmOptions, commandLine);
        Map<String, JsonNode> inputs = vmOptions.inputs(commandLine);
        List<String> secrets = TemporalRequests.secretNames(vmOptions, commandLine);
        RunSettings settings = TemporalRequests.settings(vmOptions, commandLine).toBuilder()
                .keepGoing(keepGoing)
                .build();
        PrintWriter err = commandLine.getErr();
        long start = System.nanoTime();
        List<PlanOutcome> outcomes = new ArrayList<>();
        ExecutorService waiting = Executors.newFixedThreadPool(
                concurrency != null ? concurrency : Batch.defaultConcurrency(), runnable -> {
                    Thread thread = new Thread(runnable, "planvm-temporal-batch");
                    thread.setDaemon(true);
                    return thread;
                });
        try (TemporalConnection connection = TemporalConnection.open(temporal.target, temporal.namespace, Map.of())) {
            Shared shared = new Shared(
                    new TemporalPlans(connection.client(), temporal.taskQueue),
                    inputs,
                    secrets,
                    settings,
                    replayDir,
                    dryRun,
                    dryRunConditions,
                    TemporalRequests.clockOptions(vmOptions, commandLine),
                    vmOptions,
                    vmOptions.temporalPlanTools(),
                    vmOptions.maxPlanDepth(commandLine));
            List<Future<PlanOutcome>> running = new ArrayList<>();
            for (String file : files) {
                running.add(waiting.submit(() -> outcome(Path.of(file), shared)));
            }
            for (Future<PlanOutcome> outcome : running) {
                outcomes.add(outcome.get());
            }
        } catch (TemporalException e) {
            err.println("planvm: " + e.getMessage());
            return ExitCodes.RUNTIME_FAILURE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("planvm batch: interrupted; nothing written");
            return ExitCodes.RUNTIME_FAILURE;
        } catch (ExecutionException e) {
            throw new IllegalStateException("a plan of the batch failed unexpectedly: " + e.getCause(), e.getCause());
        } finally {
            waiting.shutdownNow();
        }
        BatchReport report = new BatchReport(outcomes, Duration.ofNanos(System.nanoTime() - start));
        if (out != null) {
            AtomicFiles.write(out, report.jsonLines());
        } else {
            outcomes.forEach(outcome -> commandLine.getOut().println(BatchReport.jsonLine(outcome)));
        }
        err.println(report.summary());
        return report.allClean() ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
    }

    /** One plan file as a workflow; never throws for anything the plan, its cassette or its run does. */
    private static PlanOutcome outcome(Path file, Shared shared) {
        long start = System.nanoTime();
        LoadResult loaded = TemporalRequests.load(file, shared.inputs().keySet());
        if (!loaded.valid()) {
            return outcome(
                    file,
                    RunStatus.INVALID,
                    null,
                    String.join(
                            "; ",
                            loaded.errors().stream()
                                    .map(d -> d.format(file.toString()))
                                    .toList()),
                    start,
                    0,
                    loaded);
        }
        try {
            PlanRequest request = TemporalRequests.request(
                    file.toString(),
                    TemporalRequests.planText(file, loaded),
                    shared.inputs(),
                    shared.secrets(),
                    shared.settings());
            // the plan tools travel with the plan: a worker needs no files
            request = request.toBuilder()
                    .planTools(
                            TemporalRequests.planTools(
                                    shared.vm().temporalPlanTools(file.toString(), shared.planTools())),
                            shared.maxPlanDepth())
                    .build();
            if (shared.dryRun()) {
                request = request.toBuilder()
                        .mode("dry-run", null, shared.dryRunConditions())
                        .build();
            } else if (shared.replayDir() != null) {
                Path cassette = PlanFileRunner.cassetteFor(file, shared.replayDir());
                if (Files.exists(cassette)) {
                    Cassette replayed = Cassette.read(cassette);
                    request = TemporalRequests.clocked(
                            request.toBuilder()
                                    .mode("replay", replayed.toJson(), false)
                                    .build(),
                            shared.clock(),
                            replayed);
                } else {
                    Optional<String> refused = PlanFileRunner.withoutCassette(loaded.plan(), cassette);
                    if (refused.isPresent()) {
                        return outcome(file, RunStatus.REJECTED, null, refused.get(), start, 0, loaded);
                    }
                }
            }
            if (request.now() == null) {
                request = TemporalRequests.clocked(request, shared.clock(), null);
            }
            PlanResponse response = shared.plans().run(request);
            RunStatus status = RunStatus.ofLabel(response.status());
            String error = response.error() != null
                    ? response.error().describe()
                    : response.problems().isEmpty() ? null : String.join("; ", response.problems());
            return outcome(file, status, response.finalAnswer(), error, start, response.steps(), loaded)
                    .withFailedSteps(TemporalRun.stepErrors(response))
                    .withUse(status == RunStatus.SUCCEEDED && response.use());
        } catch (CassetteException e) {
            return outcome(file, RunStatus.REJECTED, null, e.getMessage(), start, 0, loaded);
        } catch (TemporalException | IOException e) {
            return outcome(file, RunStatus.FAILED, null, e.getMessage(), start, 0, loaded);
        }
    }

    private static PlanOutcome outcome(
            Path file, RunStatus status, JsonNode answer, String error, long start, int steps, LoadResult loaded) {
        return new PlanOutcome(
                file,
                status,
                answer,
                error,
                (System.nanoTime() - start) / 1_000_000,
                steps,
                loaded.diagnostics(),
                null);
    }
}
