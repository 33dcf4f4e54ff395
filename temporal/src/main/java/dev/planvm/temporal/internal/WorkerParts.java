package dev.planvm.temporal.internal;

import dev.planvm.temporal.contract.PlanActivities;
import dev.planvm.temporal.contract.PlanWorkflow;
import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import io.opentelemetry.api.OpenTelemetry;
import io.temporal.worker.Worker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Registers planvm's workflow and activities on a Temporal worker. The activities call tools
 * through the worker's own call chain: its tool policy, its per-tool concurrency limits, and the
 * tool behind its params check; retries are the activity's, so the chain makes one attempt.
 */
public final class WorkerParts implements AutoCloseable {

    /** Where the workflows' and activities' spans go, or {@code null}. */
    private final OpenTelemetry telemetry;
    /** The workflow runs of this worker that may hold spans open. */
    private final Set<TemporalSpans.OpenSpans> live = ConcurrentHashMap.newKeySet();

    private final ScheduledExecutorService timer;
    private final ExecutorService timed;
    private final ToolCatalog catalog;
    private final PlanActivities activities;

    /**
     * @param secrets          the secrets this worker holds (name to value), resolved from references in params
     * @param redactor         redacts them (and the configuration's own secrets) from outputs and messages
     * @param heartbeatTimeout how long an attempt may go without a heartbeat before the server retries it elsewhere
     * @param maxPayloadBytes  the largest output an activity may return
     */
    public WorkerParts(
            List<Tool> tools,
            ConditionEvaluator conditions,
            Map<String, String> unavailable,
            ToolPolicy policy,
            Map<String, Integer> toolLimits,
            Map<String, String> secrets,
            Redactor redactor,
            Duration heartbeatTimeout,
            long maxPayloadBytes) {
        this(
                tools,
                conditions,
                unavailable,
                policy,
                toolLimits,
                secrets,
                redactor,
                heartbeatTimeout,
                maxPayloadBytes,
                null);
    }

    /** @param telemetry where the activities' spans go, or {@code null}: none */
    public WorkerParts(
            List<Tool> tools,
            ConditionEvaluator conditions,
            Map<String, String> unavailable,
            ToolPolicy policy,
            Map<String, Integer> toolLimits,
            Map<String, String> secrets,
            Redactor redactor,
            Duration heartbeatTimeout,
            long maxPayloadBytes,
            OpenTelemetry telemetry) {
        this.telemetry = telemetry;
        this.timer = Executors.newSingleThreadScheduledExecutor(daemon("planvm-heartbeat"));
        this.timed = Executors.newCachedThreadPool(daemon("planvm-timed-activity"));
        CallChain chain = CallChains.standard(
                CallChains.parts(ToolRegistry.of(tools))
                        .conditions(conditions)
                        .policy(policy)
                        .retries(RetrySettings.of(RetryPolicy.NONE))
                        .toolLimits(toolLimits)
                        .build(),
                null);
        this.catalog = Catalogs.of(tools, conditions != null, unavailable);
        this.activities = new PlanActivitiesImpl(
                new CallAttempts(chain, redactor, new Heartbeats(timer, heartbeatTimeout), timed, maxPayloadBytes),
                new SecretReferences(secrets),
                catalog,
                telemetry == null ? null : telemetry.getTracer(TemporalSpans.INSTRUMENTATION));
    }

    /** The tools these activities hold, as a workflow on the same worker learns them. */
    public ToolCatalog catalog() {
        return catalog;
    }

    public void registerActivities(Worker worker) {
        worker.registerActivitiesImplementations(activities);
    }

    /** Registers the plan workflow, deployed as {@code deployment} says. */
    public static void registerWorkflow(Worker worker, Deployment deployment) {
        registerWorkflow(worker, deployment, null);
    }

    /**
     * Registers the plan workflow, whose runs send their spans to {@code telemetry} (never while a
     * workflow replays), or none when {@code null}.
     */
    public static void registerWorkflow(Worker worker, Deployment deployment, OpenTelemetry telemetry) {
        registerWorkflow(worker, deployment, telemetry, ConcurrentHashMap.newKeySet());
    }

    /** Registers the plan workflow with this worker's telemetry; {@link #endOpenSpans} ends what its runs hold. */
    public void registerPlanWorkflow(Worker worker, Deployment deployment) {
        registerWorkflow(worker, deployment, telemetry, live);
    }

    private static void registerWorkflow(
            Worker worker, Deployment deployment, OpenTelemetry telemetry, Set<TemporalSpans.OpenSpans> live) {
        worker.registerWorkflowImplementationFactory(
                PlanWorkflow.class, () -> new PlanWorkflowImpl(deployment, telemetry, live));
    }

    /**
     * Ends the spans the workflow runs of this worker still hold open, marked
     * {@code planvm.workflow.left_worker}: the worker stopped (its workflows go on elsewhere, and a workflow
     * the stopping worker did not unwind would otherwise leave its spans open for good).
     */
    public void endOpenSpans() {
        for (TemporalSpans.OpenSpans open : List.copyOf(live)) {
            open.endAll();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        timed.shutdownNow();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
