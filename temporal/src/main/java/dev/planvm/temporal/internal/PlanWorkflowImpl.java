package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.temporal.contract.InputAnswer;
import dev.planvm.temporal.contract.PlanActivities;
import dev.planvm.temporal.contract.PlanProgress;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.PlanToolSource;
import dev.planvm.temporal.contract.PlanWorkflow;
import dev.planvm.temporal.contract.RunFailure;
import dev.planvm.temporal.contract.StepFailure;
import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.temporal.contract.WaitingInput;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.plantools.PlanToolsException;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import dev.planvm.vm.trace.TraceRecorder;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.workflow.Async;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one plan inside a workflow: records the worker's deployment, learns which tools the task
 * queues' workers hold, loads the plan, and runs planvm's interpreter with every call an activity.
 * The committed steps are kept for the {@code progress} query. Everything here is deterministic:
 * the plan, the inputs, the recorded deployment and the activities' answers decide every step.
 */
public final class PlanWorkflowImpl implements PlanWorkflow {

    /** The most step entries the progress query answers with (the last ones): a query answer is one payload. */
    static final int PROGRESS_STEPS = 200;

    /** How long the workers of a task queue may take to say which tools they hold. */
    private static final Duration DESCRIBE_TIMEOUT = Duration.ofMinutes(5);

    private final Deployment configured;
    private final io.opentelemetry.api.OpenTelemetry telemetry;
    /** The runs of this worker that may hold spans open (ended when the worker stops), with telemetry. */
    private final java.util.Set<TemporalSpans.OpenSpans> live;

    private final List<JsonNode> committed = new ArrayList<>();
    private final WorkflowInputs person = new WorkflowInputs();
    private String status = "running";
    private String source;
    private String digest;
    private String mode;

    /** @param configured how the worker running this workflow is deployed */
    public PlanWorkflowImpl(Deployment configured) {
        this(configured, null, null);
    }

    /**
     * @param telemetry where the run's spans go (made only when not replaying: {@link TemporalSpans#forWorkflow}),
     *                  or {@code null}
     */
    PlanWorkflowImpl(
            Deployment configured,
            io.opentelemetry.api.OpenTelemetry telemetry,
            java.util.Set<TemporalSpans.OpenSpans> live) {
        this.configured = configured;
        this.telemetry = telemetry;
        this.live = live;
    }

    @Override
    @SuppressWarnings("try") // the scope keeps the run's context clean
    public PlanResponse run(PlanRequest request) {
        source = request.source();
        mode = request.mode();
        Deployment deployment = Workflow.sideEffect(Deployment.class, () -> configured);
        PlanResponse response;
        if (telemetry == null) {
            response = run(request, deployment, null);
        } else {
            TemporalSpans.OpenSpans open = new TemporalSpans.OpenSpans(live);
            // the run's span is the child of the client's span (traceparent), else a root: nothing a pooled
            // workflow thread held before is its parent
            try (io.opentelemetry.context.Scope parent =
                    TemporalSpans.runParent(request.traceparent()).makeCurrent()) {
                response = run(request, deployment, TemporalSpans.forWorkflow(telemetry, open));
            } catch (Error leaving) {
                // the workflow leaves this worker (evicted from its cache, the worker stopping): Temporal unwinds
                // its threads with an Error; the spans this worker holds open end now, not never (the worker
                // that takes the workflow on replays it without spans and makes the later ones)
                open.endAll();
                throw leaving;
            } finally {
                open.done();
            }
        }
        status = response.status();
        return Responses.bounded(response, deployment.maxPayloadBytes());
    }

    private PlanResponse run(PlanRequest request, Deployment deployment, io.opentelemetry.api.OpenTelemetry telemetry) {
        Map<String, ToolCatalog> catalogs;
        try {
            catalogs = catalogs(deployment);
        } catch (ActivityFailure noWorker) {
            return PlanResponse.refused(
                    "rejected", List.of("no worker said which tools it holds: " + Responses.reason(noWorker)));
        }
        List<String> problems = new ArrayList<>();
        List<Plan> planTools = new ArrayList<>();
        Map<String, PlanToolSource> sources = new LinkedHashMap<>();
        for (PlanToolSource tool : request.planTools()) {
            LoadResult loadedTool = new PlanLoader().load(tool.plan(), tool.source());
            if (!loadedTool.valid()) {
                loadedTool.errors().forEach(error -> problems.add("plan tool " + error.format(tool.source())));
            } else if (loadedTool.plan().signature().map(PlanSignature::name).isEmpty()) {
                problems.add("plan tool " + tool.source() + ": a plan tool names itself (\"name\")");
            } else {
                planTools.add(loadedTool.plan());
                sources.putIfAbsent(loadedTool.plan().signature().get().name(), tool);
            }
        }
        if (!problems.isEmpty()) {
            return PlanResponse.refused("rejected", problems);
        }
        PlanVm vm;
        try {
            vm = WorkflowVm.build(
                    deployment,
                    catalogs,
                    request.settings(),
                    person,
                    telemetry,
                    planTools,
                    request.maxPlanDepth(),
                    new ChildWorkflows(request, sources));
        } catch (PlanToolsException refused) {
            return PlanResponse.refused("rejected", refused.problems());
        }
        LoadResult loaded = vm.loader().load(request.plan(), request.source());
        if (!loaded.valid()) {
            List<String> errors = new ArrayList<>();
            for (Diagnostic error : loaded.errors()) {
                errors.add(error.format(request.source())
                        .substring(request.source().length() + 2));
            }
            return PlanResponse.refused("invalid", errors);
        }
        digest = loaded.plan().digest();
        RunMode runMode;
        try {
            runMode = mode(request);
        } catch (CassetteException broken) {
            return PlanResponse.refused("rejected", List.of(broken.getMessage()));
        }
        Map<String, JsonNode> inputs = new LinkedHashMap<>(request.inputs());
        for (String secret : request.secrets()) {
            inputs.put(secret, TextNode.valueOf(SecretReferences.reference(secret)));
        }
        RunResult result;
        try {
            result = vm.run(RunRequest.builder(loaded.plan())
                    .inputs(inputs)
                    .mode(runMode)
                    .listener(new Progress())
                    .options(options(request))
                    .build());
        } catch (PlanRejectedException rejected) {
            return PlanResponse.refused("rejected", rejected.problems());
        }
        RunFailure error = result.error() == null
                ? null
                : new RunFailure(
                        result.error().seqNo(),
                        result.error().type(),
                        result.error().message(),
                        result.error().kind().label());
        JsonNode cassette = runMode instanceof RunMode.Record record
                ? record.recording().cassette().toJson()
                : null;
        return new PlanResponse(
                result.status().label(),
                result.finalAnswer(),
                error,
                result.steps(),
                result.warnings(),
                List.of(),
                result.trace(),
                cassette,
                result.failedSteps().stream()
                        .map(failed -> new StepFailure(
                                failed.seqNo(),
                                failed.type(),
                                failed.tool(),
                                failed.kind().label(),
                                failed.message()))
                        .toList(),
                result.handsBack());
    }

    /** The run's clock and whether it keeps going, as the request says. */
    private static RunOptions options(PlanRequest request) {
        RunOptions options = RunOptions.DEFAULT.withKeepGoing(request.settings().keepGoing());
        return request.now() == null
                ? options
                : options.withClock(new RunClock(
                        Instant.parse(request.now()), ZoneId.of(request.zone() == null ? "UTC" : request.zone())));
    }

    private static RunMode mode(PlanRequest request) {
        return switch (request.mode()) {
            case "record" -> RunMode.record();
            case "replay" ->
                RunMode.replay(Cassette.fromJson(request.cassette(), request.source() + " (cassette)"), false);
            case "dry-run" -> RunMode.dryRun(request.dryRunConditions());
            default -> RunMode.live();
        };
    }

    /** The tools of every task queue calls may go to: this worker's own, else asked of the queue's workers (at once). */
    private static Map<String, ToolCatalog> catalogs(Deployment deployment) {
        Map<String, Promise<ToolCatalog>> asked = new LinkedHashMap<>();
        for (String queue : deployment.queues()) {
            if (!queue.equals(deployment.taskQueue()) || deployment.localCatalog() == null) {
                PlanActivities workers = Workflow.newActivityStub(
                        PlanActivities.class,
                        ActivityOptions.newBuilder()
                                .setTaskQueue(queue)
                                .setScheduleToCloseTimeout(DESCRIBE_TIMEOUT)
                                .setStartToCloseTimeout(Duration.ofSeconds(30))
                                .setRetryOptions(RetryOptions.newBuilder()
                                        .setInitialInterval(Duration.ofSeconds(1))
                                        .build())
                                .setSummary("which tools task queue '" + queue + "' holds")
                                .build());
                asked.put(queue, Async.function(workers::describeTools));
            }
        }
        Map<String, ToolCatalog> catalogs = new LinkedHashMap<>();
        for (String queue : deployment.queues()) {
            Promise<ToolCatalog> answer = asked.get(queue);
            catalogs.put(queue, answer == null ? deployment.localCatalog() : answer.get());
        }
        return catalogs;
    }

    @Override
    public PlanProgress progress() {
        int from = Math.max(0, committed.size() - PROGRESS_STEPS);
        return new PlanProgress(
                status, source, digest, mode, committed.size(), committed.subList(from, committed.size()));
    }

    @Override
    public List<WaitingInput> inputs() {
        return person.waiting();
    }

    @Override
    public void validateAnswer(InputAnswer answer) {
        person.check(answer);
    }

    @Override
    public int answer(InputAnswer answer) {
        return person.give(answer);
    }

    /** Keeps the trace entry of every committed step for the query. */
    private final class Progress implements RunListener {
        @Override
        public void stepFinished(StepRecord step) {
            if (!step.failed() || step.recovered()) {
                committed.add(TraceRecorder.entry(step));
            }
        }
    }
}
