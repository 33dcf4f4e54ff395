package dev.planvm.temporal;

import dev.planvm.temporal.internal.Deployment;
import dev.planvm.temporal.internal.WorkerParts;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.config.LoadedTools;
import io.temporal.client.WorkflowClient;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Temporal workers that run plans: on one task queue, a workflow worker (planvm's interpreter in
 * the {@code PlanvmPlan} workflow) and an activity worker (the tools and LLM conditions this
 * process holds), either or both. Calls of some tools can go to task queues of their own
 * ({@link Builder#route}), served by workers that hold only those tools — where their credentials
 * live, or to rate-limit them as a queue.
 *
 * <pre>{@code
 * try (PlanWorkers workers = PlanWorkers.builder(client).taskQueue("planvm").tools(tools).build().start()) {
 *     // plans submitted with TemporalPlans run here until close()
 * }
 * }</pre>
 */
public final class PlanWorkers implements AutoCloseable {

    /** The task queue plans run on unless told otherwise. */
    public static final String DEFAULT_TASK_QUEUE = "planvm";
    /** How long an activity may go without a heartbeat before its attempt is retried elsewhere. */
    public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(30);
    /** The largest output one call may return, as JSON (Temporal refuses payloads over 2 MB). */
    public static final long DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;

    private final Builder settings;
    private final WorkerParts parts;
    private WorkerFactory factory;

    private PlanWorkers(Builder b) {
        this.settings = b;
        Map<String, String> redacted = new LinkedHashMap<>();
        b.secrets.forEach((name, value) -> {
            if (value.length() >= Redactor.MIN_LENGTH) {
                redacted.put(name, value);
            }
        });
        Redactor redactor = Redactor.of(redacted);
        if (!redacted.isEmpty() && b.activities) {
            checkConverter(b.client, redacted);
        }
        this.parts = new WorkerParts(
                b.tools,
                b.conditions,
                b.unavailable,
                b.policy,
                b.toolLimits,
                b.secrets,
                redactor,
                b.heartbeatTimeout,
                b.maxPayloadBytes,
                b.openTelemetry);
    }

    public static Builder builder(WorkflowClient client) {
        return new Builder(client);
    }

    /** A secret this worker holds must be redacted by the client's converter, or a payload could carry it to the server. */
    private static void checkConverter(WorkflowClient client, Map<String, String> secrets) {
        Object converter = client.getOptions().getDataConverter();
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
            if (!(converter instanceof RedactingDataConverter redacting)
                    || !redacting.redacts(secret.getKey(), secret.getValue())) {
                throw new IllegalStateException(
                        "the worker holds the secret '" + secret.getKey() + "' but its Temporal client"
                                + " does not redact it: build the client with RedactingDataConverter.of(secrets)");
            }
        }
    }

    /** Starts polling the task queues; returns this. */
    public synchronized PlanWorkers start() {
        if (factory != null) {
            throw new IllegalStateException("the workers are started already");
        }
        factory = WorkerFactory.newInstance(settings.client);
        WorkerOptions.Builder options =
                WorkerOptions.newBuilder().setDefaultDeadlockDetectionTimeout(settings.deadlockDetection.toMillis());
        if (settings.maxConcurrentActivities > 0) {
            options.setMaxConcurrentActivityExecutionSize(settings.maxConcurrentActivities);
        }
        if (settings.activitiesPerSecond > 0) {
            options.setMaxTaskQueueActivitiesPerSecond(settings.activitiesPerSecond);
        }
        if (settings.stickyQueueTimeout != null) {
            options.setStickyQueueScheduleToStartTimeout(settings.stickyQueueTimeout);
        }
        Worker worker = factory.newWorker(settings.taskQueue, options.build());
        if (settings.workflows) {
            parts.registerPlanWorkflow(
                    worker,
                    new Deployment(
                            settings.taskQueue,
                            settings.routes,
                            settings.heartbeatTimeout.toMillis(),
                            settings.maxPayloadBytes,
                            settings.activities ? parts.catalog() : null,
                            settings.maxHistoryBytes));
        }
        if (settings.activities) {
            parts.registerActivities(worker);
        }
        factory.start();
        return this;
    }

    public String taskQueue() {
        return settings.taskQueue;
    }

    /** The names of the tools this worker's activities hold. */
    public List<String> toolNames() {
        return parts.catalog().tools().stream()
                .map(dev.planvm.temporal.contract.ToolInfo::name)
                .toList();
    }

    /**
     * Stops at once, as a crash would (in-flight activities are abandoned; the server retries them
     * on other workers after their heartbeat timeout, and workflows continue on other workers).
     */
    public synchronized void kill() {
        parts.close(); // no more heartbeats: the server will see the running attempts as lost
        if (factory != null) {
            factory.shutdownNow();
        }
        parts.endOpenSpans(); // what the stopped workflows held open: they go on on other workers
    }

    /** Stops polling, lets running tasks finish (up to 30 s), then closes what the configuration opened. */
    @Override
    public synchronized void close() {
        if (factory != null) {
            factory.shutdown();
            factory.awaitTermination(30, TimeUnit.SECONDS);
            factory.shutdownNow();
        }
        parts.endOpenSpans();
        parts.close();
        for (AutoCloseable resource : settings.resources) {
            try {
                resource.close();
            } catch (Exception e) {
                // closing what the configuration opened is best effort at shutdown
            }
        }
    }

    /** Configures {@link PlanWorkers}. */
    public static final class Builder {
        private final WorkflowClient client;
        private String taskQueue = DEFAULT_TASK_QUEUE;
        private final List<Tool> tools = new ArrayList<>();
        private ConditionEvaluator conditions;
        private final Map<String, String> unavailable = new LinkedHashMap<>();
        private final Map<String, String> secrets = new LinkedHashMap<>();
        private ToolPolicy policy = ToolPolicy.ALLOW_ALL;
        private final Map<String, Integer> toolLimits = new LinkedHashMap<>();
        private final Map<String, String> routes = new LinkedHashMap<>();
        private boolean workflows = true;
        private boolean activities = true;
        private Duration heartbeatTimeout = DEFAULT_HEARTBEAT_TIMEOUT;
        private long maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
        private int maxConcurrentActivities;
        private double activitiesPerSecond;
        private Duration deadlockDetection = Duration.ofSeconds(10);
        private Duration stickyQueueTimeout;
        private long maxHistoryBytes = Deployment.DEFAULT_MAX_ANSWER_BYTES;
        private final List<AutoCloseable> resources = new ArrayList<>();
        private io.opentelemetry.api.OpenTelemetry openTelemetry;

        private Builder(WorkflowClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /**
         * Where spans go: the workflow's (the run, its steps and calls, made only when the workflow is not
         * replaying) and the activities' (each attempt a child of its call's span, whose W3C
         * {@code traceparent} travels in the activity's input), so a run is one connected trace.
         */
        public Builder openTelemetry(io.opentelemetry.api.OpenTelemetry telemetry) {
            this.openTelemetry = Objects.requireNonNull(telemetry, "telemetry");
            return this;
        }

        public Builder taskQueue(String queue) {
            this.taskQueue = requireName(queue, "task queue");
            return this;
        }

        public Builder tool(Tool tool) {
            tools.add(Objects.requireNonNull(tool, "tool"));
            return this;
        }

        public Builder tools(Iterable<? extends Tool> more) {
            more.forEach(this::tool);
            return this;
        }

        /**
         * The tools of a tools configuration ({@code planvm.json}) less those {@code policy} refuses,
         * its condition evaluator, and its secrets (redacted from outputs); {@link #close()} closes it.
         */
        public Builder tools(LoadedTools loaded, ToolPolicy toolPolicy) {
            tools(loaded.tools(toolPolicy));
            loaded.conditionEvaluator().ifPresent(this::conditionEvaluator);
            unavailable.putAll(loaded.unavailable());
            secrets.putAll(loaded.secretsUsed());
            resources.add(loaded);
            return this;
        }

        /** Decides {@code condition_prompt}s (an LLM); without one, no plan using them runs on this queue. */
        public Builder conditionEvaluator(ConditionEvaluator evaluator) {
            this.conditions = evaluator;
            return this;
        }

        /**
         * Secrets this worker holds (name to value): a plan given the secret's name sees a reference,
         * which this worker replaces in the params of the calls it makes. Its client must redact them
         * ({@link RedactingDataConverter}).
         */
        public Builder secrets(Map<String, String> values) {
            secrets.putAll(values);
            return this;
        }

        /** Tools these activities refuse to call, whatever the plan's own policy says. */
        public Builder toolPolicy(ToolPolicy toolPolicy) {
            this.policy = Objects.requireNonNull(toolPolicy, "toolPolicy");
            return this;
        }

        /** The most calls of {@code tool} this worker runs at once. */
        public Builder toolConcurrency(String tool, int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("the concurrency of tool '" + tool + "' must be at least 1");
            }
            toolLimits.put(tool, limit);
            return this;
        }

        /**
         * Workflows of this worker send calls of {@code tool} to {@code queue} (where workers holding
         * it run); {@code condition_prompt} routes LLM conditions.
         */
        public Builder route(String tool, String queue) {
            routes.put(requireName(tool, "tool"), requireName(queue, "task queue"));
            return this;
        }

        /** Whether this worker runs plan workflows (default true). */
        public Builder workflows(boolean on) {
            this.workflows = on;
            return this;
        }

        /** Whether this worker runs the calls of its tools (default true). */
        public Builder activities(boolean on) {
            this.activities = on;
            return this;
        }

        /** How long an activity may go without a heartbeat before the server retries it elsewhere (default 30 s). */
        public Builder heartbeatTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the heartbeat timeout must be positive");
            }
            this.heartbeatTimeout = timeout;
            return this;
        }

        /** The largest call output (and plan result) as JSON, in bytes (default 1 MiB). */
        public Builder maxPayloadBytes(long bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("the payload limit must be at least 1,024 bytes");
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /**
         * The most bytes (as JSON) the answers of one plan's calls may add up to (default 40 MiB), so
         * its workflow history stays under Temporal's limit (50 MB by default): the call that would
         * pass it fails its step with a sentence.
         */
        public Builder maxHistoryBytes(long bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("the history limit must be at least 1,024 bytes");
            }
            this.maxHistoryBytes = bytes;
            return this;
        }

        /** The most activities this worker runs at once (default: Temporal's, 200). */
        public Builder maxConcurrentActivities(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("the most concurrent activities must be at least 1");
            }
            this.maxConcurrentActivities = n;
            return this;
        }

        /** The most activities per second the server hands out on this task queue, to all its workers together. */
        public Builder activitiesPerSecond(double rate) {
            if (!(rate > 0)) {
                throw new IllegalArgumentException("the activity rate must be positive");
            }
            this.activitiesPerSecond = rate;
            return this;
        }

        /**
         * How long a workflow's next task waits for this worker, which has the workflow in its cache,
         * before any worker of the queue may take it (Temporal's default: 5 s); {@link Duration#ZERO}
         * turns sticky execution off: every workflow task replays the workflow's history.
         */
        public Builder stickyQueueTimeout(Duration timeout) {
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("the sticky queue timeout must not be negative");
            }
            this.stickyQueueTimeout = timeout;
            return this;
        }

        public PlanWorkers build() {
            if (!workflows && !activities) {
                throw new IllegalStateException("a worker runs workflows, activities or both");
            }
            return new PlanWorkers(this);
        }

        private static String requireName(String name, String what) {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("the " + what + " name must not be empty");
            }
            return name;
        }
    }
}
