package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLimits;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.json.AtomicFiles;
import dev.planvm.temporal.TemporalConnection;
import dev.planvm.temporal.TemporalException;
import dev.planvm.temporal.TemporalPlans;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.StepFailure;
import dev.planvm.tools.Redactor;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepError;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code run --temporal} and {@code show --temporal}: the plan is checked here, runs as a workflow
 * on the workers of the task queue, and its result is printed as a local run's (the answer on
 * stdout, the failure on stderr, {@code --trace} and {@code --record} files written). Loaded only
 * when Temporal is on the class path.
 */
final class TemporalRun {

    /** Read from standard input at most: one byte more than a plan may be, so the loader can refuse it. */
    private static final int MAX_STDIN = (int) PlanLimits.DEFAULT.maxBytes() + 1;

    private TemporalRun() {}

    /** {@code run FILE --temporal ...} ({@code keepGoing}: {@code --keep-going}); returns the exit code. */
    static int run(
            String file,
            Path trace,
            ModeOptions modeOptions,
            VmOptions vmOptions,
            TemporalOptions temporal,
            TemporalRunOptions runOptions,
            boolean keepGoing,
            boolean verbose,
            CommandLine commandLine)
            throws IOException {
        TemporalRequests.check(vmOptions, commandLine);
        PrintWriter err = commandLine.getErr();
        String text = file.equals("-") ? new String(System.in.readNBytes(MAX_STDIN), StandardCharsets.UTF_8) : null;
        LoadResult loaded = text == null
                ? TemporalRequests.load(
                        Path.of(file), vmOptions.inputs(commandLine).keySet())
                : new PlanLoader().load(text, "<stdin>");
        if (!loaded.valid()) {
            loaded.errors().forEach(error -> err.println(error.format(file)));
            return ExitCodes.INVALID;
        }
        // the plan tools travel with the plan: a worker needs no files
        PlanRequest.Builder built = TemporalRequests.request(
                        file,
                        text != null ? text : TemporalRequests.planText(Path.of(file), loaded),
                        vmOptions.inputs(commandLine),
                        TemporalRequests.secretNames(vmOptions, commandLine),
                        TemporalRequests.settings(vmOptions, commandLine).toBuilder()
                                .keepGoing(keepGoing)
                                .build())
                .toBuilder()
                .planTools(
                        TemporalRequests.planTools(vmOptions.temporalPlanTools(file, vmOptions.temporalPlanTools())),
                        vmOptions.maxPlanDepth(commandLine));
        RunMode mode = modeOptions.mode(commandLine);
        if (mode instanceof RunMode.Replay replay) {
            built.mode("replay", replay.cassette().toJson(), false);
        } else if (mode instanceof RunMode.Record) {
            built.mode("record", null, false);
        } else if (mode instanceof RunMode.DryRun dry) {
            built.mode("dry-run", null, dry.conditionsAnswer());
        }
        PlanRequest request = built.build();
        request = TemporalRequests.clocked(
                request,
                TemporalRequests.clockOptions(vmOptions, commandLine),
                mode instanceof RunMode.Replay replay ? replay.cassette() : null);
        Telemetry telemetry = Telemetry.of(commandLine);
        // traced: the client's span is current while it starts and waits, and the workflow's run span its child
        try (TemporalConnection connection = TemporalConnection.open(temporal.target, temporal.namespace, Map.of());
                TemporalClientSpan span = telemetry.enabled()
                        ? TemporalClientSpan.start(telemetry.openTelemetry(), file, temporal.taskQueue)
                        : null) {
            TemporalPlans plans = new TemporalPlans(connection.client(), temporal.taskQueue);
            long start = System.nanoTime();
            String id = plans.start(request, runOptions.workflowId);
            if (span != null) {
                span.workflow(id);
            }
            if (runOptions.noWait) {
                commandLine.getOut().println(id);
                return ExitCodes.OK;
            }
            if (verbose) {
                err.println(
                        "workflow " + id + " started on task queue " + temporal.taskQueue + " at " + temporal.target);
            }
            PlanResponse response = plans.result(id);
            return print(
                    file,
                    response,
                    Duration.ofNanos(System.nanoTime() - start),
                    trace,
                    modeOptions.recordTo(),
                    id,
                    verbose,
                    vmOptions.revealSecrets(),
                    commandLine);
        } catch (TemporalException e) {
            err.println("planvm: " + e.getMessage());
            return ExitCodes.of(e.kind());
        }
    }

    /** {@code show ID --temporal ...}: the workflow as JSON; exit 2 when there is none. */
    static int show(String workflowId, TemporalOptions temporal, CommandLine commandLine) {
        try (TemporalConnection connection = TemporalConnection.open(temporal.target, temporal.namespace, Map.of())) {
            ObjectNode document = new TemporalPlans(connection.client(), temporal.taskQueue).show(workflowId);
            commandLine.getOut().println(document.toPrettyString());
            return ExitCodes.OK;
        } catch (TemporalException e) {
            commandLine.getErr().println("planvm: " + e.getMessage());
            return ExitCodes.of(e.kind());
        }
    }

    /**
     * Answers the {@code human_input} call workflow {@code workflowId} waits for; the workflow goes on on its
     * workers. A wrong answer is refused with the reason (exit 2) and the workflow keeps waiting.
     */
    static int answer(
            String workflowId,
            Integer seqNo,
            com.fasterxml.jackson.databind.JsonNode value,
            TemporalOptions temporal,
            CommandLine commandLine) {
        try (TemporalConnection connection = TemporalConnection.open(temporal.target, temporal.namespace, Map.of())) {
            int answered = new TemporalPlans(connection.client(), temporal.taskQueue).answer(workflowId, seqNo, value);
            commandLine
                    .getErr()
                    .println("planvm: workflow " + workflowId + " took the answer to human_input at seq_no " + answered
                            + " and goes on (planvm show " + workflowId + " --temporal ... shows it)");
            return ExitCodes.OK;
        } catch (TemporalException e) {
            commandLine.getErr().println("planvm: " + e.getMessage());
            return ExitCodes.of(e.kind());
        }
    }

    /** Prints a workflow's response as {@code run} prints a local result. */
    private static int print(
            String file,
            PlanResponse response,
            Duration took,
            Path trace,
            Path record,
            String id,
            boolean verbose,
            boolean reveal,
            CommandLine commandLine)
            throws IOException {
        PrintWriter err = commandLine.getErr();
        RunOutput output = new RunOutput(file, commandLine, verbose, Redactor.none(), trace, null, reveal)
                .document(DocumentRun.of(file, null, null, null, commandLine)); // exit 1 when a block failed
        switch (response.status()) {
            case "invalid" -> {
                response.problems().forEach(problem -> err.println(file + ": " + problem));
                return ExitCodes.INVALID;
            }
            case "rejected" -> {
                return output.rejected(new PlanRejectedException(response.problems()));
            }
            default -> {
                boolean written = true;
                if (record != null && response.cassette() != null) {
                    written = writeCassette(file, record, response.cassette(), err);
                }
                int code = output.finished(result(response, took), RunMode.live());
                if (!response.completed()) {
                    err.println("workflow " + id + ": planvm show " + id + " --temporal ... shows it");
                }
                return written ? code : Math.max(code, ExitCodes.RUNTIME_FAILURE);
            }
        }
    }

    private static boolean writeCassette(String file, Path record, JsonNode cassette, PrintWriter err) {
        try {
            AtomicFiles.write(record, cassette.toPrettyString() + "\n");
            return true;
        } catch (IOException | RuntimeException e) {
            err.println(file + ": " + e.getMessage());
            return false;
        }
    }

    /**
     * A workflow's response as a local run's result (its variables stay in the workflow, but for {@code use},
     * which the response reports).
     */
    static RunResult result(PlanResponse response, Duration took) {
        RunError error = response.error() == null
                ? null
                : new RunError(
                        response.error().seqNo(),
                        response.error().type(),
                        response.error().message(),
                        null,
                        null,
                        kind(response));
        JsonNode early = response.trace() == null ? null : response.trace().get("early_calls");
        RunResult.EarlyCalls earlyCalls = early == null || !early.isObject()
                ? null
                : new RunResult.EarlyCalls(
                        early.path("started").asInt(),
                        early.path("used").asInt(),
                        early.path("mismatched").asInt());
        return new RunResult(
                RunStatus.ofLabel(response.status()),
                response.finalAnswer(),
                response.use() ? Map.of(Plan.USE, BooleanNode.TRUE) : Map.of(), // the one variable it reports
                error,
                response.steps(),
                took,
                response.trace(),
                response.warnings(),
                earlyCalls,
                null,
                stepErrors(response));
    }

    /** The kind the worker sent, or (from a worker older than the field) the one its status implies. */
    private static FailureKind kind(PlanResponse response) {
        FailureKind sent = FailureKind.ofLabel(response.error().kind());
        if (sent != null) {
            return sent;
        }
        return switch (RunStatus.ofLabel(response.status())) {
            case WAITING -> FailureKind.WAITING_FOR_APPROVAL;
            case INTERRUPTED, RUNNING -> FailureKind.INTERRUPTED;
            default -> FailureKind.STEP_FAILED;
        };
    }

    /** The steps that failed and let the workflow's run go on, as a local result lists them. */
    static List<StepError> stepErrors(PlanResponse response) {
        return response.failedSteps().stream().map(TemporalRun::stepError).toList();
    }

    /** A step that failed and let the workflow's run go on, as a local result lists it. */
    private static StepError stepError(StepFailure failed) {
        StepError.Kind kind = java.util.Arrays.stream(StepError.Kind.values())
                .filter(k -> k.label().equals(failed.kind()))
                .findFirst()
                .orElse(StepError.Kind.STEP_FAILED); // a kind this client does not know
        return new StepError(failed.seqNo(), failed.type(), failed.tool(), kind, failed.message());
    }
}
