package dev.planvm.temporal.internal;

import dev.planvm.temporal.contract.ToolCatalog;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * How the workflow worker that runs a plan is deployed: its task queue, which tools' calls go to
 * other task queues, how often activities must heartbeat, and the tools this worker itself holds
 * when it also serves activities on its queue. A workflow records it once (a side effect), so a
 * replay on a worker configured otherwise makes the same decisions.
 *
 * @param routes         tool name to the task queue its calls go to; {@value #CONDITIONS} routes LLM conditions
 * @param localCatalog   the tools of this worker's own activities on {@link #taskQueue}, or {@code null}
 * @param maxAnswerBytes the most bytes (as JSON) the answers of one run's calls may add up to, so its
 *                       history stays under Temporal's limit; 0 (a history recorded before it existed)
 *                       means {@link #DEFAULT_MAX_ANSWER_BYTES}
 */
public record Deployment(
        String taskQueue,
        Map<String, String> routes,
        long heartbeatTimeoutMs,
        long maxPayloadBytes,
        ToolCatalog localCatalog,
        long maxAnswerBytes) {

    /** 40 MiB: Temporal refuses a history over 50 MB by default, and a history holds more than the answers. */
    public static final long DEFAULT_MAX_ANSWER_BYTES = 40L * 1024 * 1024;

    /** The route key of {@code condition_prompt} evaluations. */
    public static final String CONDITIONS = "condition_prompt";

    public Deployment {
        Objects.requireNonNull(taskQueue, "taskQueue");
        routes = routes == null ? Map.of() : Map.copyOf(routes);
        if (heartbeatTimeoutMs < 1 || maxPayloadBytes < 1 || maxAnswerBytes < 0) {
            throw new IllegalArgumentException("the heartbeat timeout and the payload limits must be positive");
        }
        maxAnswerBytes = maxAnswerBytes == 0 ? DEFAULT_MAX_ANSWER_BYTES : maxAnswerBytes;
    }

    /** The task queue the calls of {@code tool} go to. */
    String queueOf(String tool) {
        return routes.getOrDefault(tool, taskQueue);
    }

    String conditionQueue() {
        return routes.getOrDefault(CONDITIONS, taskQueue);
    }

    /** Every task queue some call may go to, this worker's first. */
    Set<String> queues() {
        Set<String> queues = new TreeSet<>(routes.values());
        queues.remove(taskQueue);
        Set<String> all = new java.util.LinkedHashSet<>();
        all.add(taskQueue);
        all.addAll(queues);
        return all;
    }
}
