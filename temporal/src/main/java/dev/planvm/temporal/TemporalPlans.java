package dev.planvm.temporal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.temporal.contract.PlanProgress;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.PlanWorkflow;
import dev.planvm.vm.run.FailureKind;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.WorkflowExecutionStatus;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowException;
import io.temporal.client.WorkflowExecutionAlreadyStarted;
import io.temporal.client.WorkflowExecutionDescription;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.failure.TemporalFailure;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Submits plans to Temporal as {@code PlanvmPlan} workflows, waits for their results, and shows
 * them: the client side of running plans on Temporal. Workflow ids are the run ids ({@code
 * planvm-} and 12 hex digits unless given); the plan's source is kept in the workflow's memo, so
 * {@code temporal workflow list} shows what each one runs. Thread-safe.
 *
 * <pre>{@code
 * TemporalPlans plans = new TemporalPlans(client, "planvm");
 * PlanResponse response = plans.run(PlanRequest.live("plan.json", Files.readString(path), Map.of()));
 * }</pre>
 */
public final class TemporalPlans {

    /** The largest request (plan, inputs, cassette) as JSON: Temporal refuses payloads over 2 MB. */
    public static final long MAX_REQUEST_BYTES = 2_000_000;

    private static final ObjectMapper JSON = JsonMappers.mapper(JsonLimits.STORE);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final WorkflowClient client;
    private final String taskQueue;

    /** @param taskQueue where the plan workflows' workers poll */
    public TemporalPlans(WorkflowClient client, String taskQueue) {
        this.client = Objects.requireNonNull(client, "client");
        this.taskQueue = Objects.requireNonNull(taskQueue, "taskQueue");
    }

    /** A fresh workflow id: {@code planvm-} and 12 hex digits. */
    public static String newWorkflowId() {
        byte[] bytes = new byte[6];
        RANDOM.nextBytes(bytes);
        return "planvm-" + HexFormat.of().formatHex(bytes);
    }

    /**
     * Starts a plan workflow and returns without waiting.
     *
     * @param workflowId the workflow's id, or {@code null} for a fresh one
     * @return the workflow id
     * @throws TemporalException when the request is too large, the id is taken by a running workflow,
     *                           or the server cannot be reached
     */
    public String start(PlanRequest request, String workflowId) {
        long size = size(request);
        if (size > MAX_REQUEST_BYTES) {
            throw new TemporalException(
                    FailureKind.REJECTED_BEFORE_RUNNING,
                    request.source() + ": the plan request (plan, inputs, cassette) is "
                            + String.format(Locale.ROOT, "%,d", size)
                            + " bytes as JSON; a Temporal workflow input may hold at most "
                            + String.format(Locale.ROOT, "%,d", MAX_REQUEST_BYTES));
        }
        String id = workflowId == null ? newWorkflowId() : workflowId;
        PlanWorkflow workflow = client.newWorkflowStub(
                PlanWorkflow.class,
                WorkflowOptions.newBuilder()
                        .setTaskQueue(taskQueue)
                        .setWorkflowId(id)
                        .setMemo(Map.of("plan", request.source(), "mode", request.mode()))
                        .setStaticSummary("planvm plan " + request.source())
                        .build());
        try {
            WorkflowClient.start(workflow::run, request);
        } catch (WorkflowExecutionAlreadyStarted taken) {
            throw new TemporalException(
                    FailureKind.CONFLICT, "workflow '" + id + "' is already running; choose another id", taken);
        } catch (StatusRuntimeException unreachable) {
            throw new TemporalException(
                    FailureKind.UNAVAILABLE,
                    "cannot start workflow '" + id + "': " + TemporalConnection.firstLine(unreachable),
                    unreachable);
        }
        return id;
    }

    /**
     * Waits for a plan workflow's end and returns its response.
     *
     * @throws TemporalException when no workflow has this id, or it ended without a result
     *                           (terminated, cancelled, timed out)
     */
    public PlanResponse result(String workflowId) {
        WorkflowStub stub = client.newUntypedWorkflowStub(workflowId);
        try {
            return stub.getResult(PlanResponse.class);
        } catch (WorkflowNotFoundException missing) {
            throw notFound(workflowId, missing);
        } catch (WorkflowException ended) {
            throw new TemporalException(
                    FailureKind.STEP_FAILED,
                    "workflow '" + workflowId + "' ended without a result: " + why(ended),
                    ended);
        } catch (StatusRuntimeException unreachable) {
            throw new TemporalException(
                    FailureKind.UNAVAILABLE,
                    "cannot read workflow '" + workflowId + "': " + TemporalConnection.firstLine(unreachable),
                    unreachable);
        }
    }

    /** {@link #start} with a fresh id, then {@link #result}. */
    public PlanResponse run(PlanRequest request) {
        return result(start(request, null));
    }

    /**
     * A plan workflow as JSON, like {@code planvm show} prints a stored run: its status, plan,
     * inputs, mode, result and error, and the trace entry of every committed step. A running
     * workflow is queried (a worker answers); an ended one is read from its result.
     */
    public ObjectNode show(String workflowId) {
        WorkflowStub stub = client.newUntypedWorkflowStub(workflowId);
        WorkflowExecutionDescription description;
        try {
            description = stub.describe();
        } catch (WorkflowNotFoundException missing) {
            throw notFound(workflowId, missing);
        } catch (StatusRuntimeException unreachable) {
            if (unreachable.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND) {
                throw notFound(workflowId, unreachable);
            }
            throw new TemporalException(
                    FailureKind.UNAVAILABLE,
                    "cannot read workflow '" + workflowId + "': " + TemporalConnection.firstLine(unreachable),
                    unreachable);
        }
        ObjectNode document = JSON.createObjectNode();
        document.put("workflow", workflowId);
        document.put("run", description.getExecution().getRunId());
        WorkflowExecutionStatus status = description.getStatus();
        if (status == WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING) {
            PlanProgress progress = stub.query("progress", PlanProgress.class);
            document.put("status", "running");
            document.putObject("plan").put("source", progress.source()).put("digest", progress.digest());
            document.put("mode", progress.mode());
            document.put("started", String.valueOf(description.getStartTime()));
            document.put("step_count", progress.stepCount());
            ArrayNode steps = document.putArray("steps");
            progress.steps().forEach(steps::add);
            return document;
        }
        if (status != WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_COMPLETED) {
            document.put(
                    "status",
                    status.name()
                            .substring("WORKFLOW_EXECUTION_STATUS_".length())
                            .toLowerCase(Locale.ROOT));
            document.put("started", String.valueOf(description.getStartTime()));
            document.put("finished", String.valueOf(description.getCloseTime()));
            return document;
        }
        PlanResponse response = result(workflowId);
        document.put("status", response.status());
        JsonNode trace = response.trace();
        if (trace != null && trace.isObject()) {
            for (String key : new String[] {"plan", "inputs", "mode", "started", "finished"}) {
                if (trace.has(key)) {
                    document.set(key, trace.get(key));
                }
            }
        }
        document.set("result", response.finalAnswer());
        document.set("error", response.error() == null ? null : JSON.valueToTree(response.error()));
        if (!response.problems().isEmpty()) {
            document.set("problems", JSON.valueToTree(response.problems()));
        }
        document.put("step_count", response.steps());
        document.set("steps", trace != null && trace.has("steps") ? trace.get("steps") : JSON.createArrayNode());
        return document;
    }

    public WorkflowClient client() {
        return client;
    }

    public String taskQueue() {
        return taskQueue;
    }

    private static TemporalException notFound(String workflowId, Exception cause) {
        return new TemporalException(
                FailureKind.NO_SUCH_RUN, "no workflow '" + workflowId + "' in this namespace", cause);
    }

    private static String why(WorkflowException ended) {
        Throwable cause = ended.getCause();
        if (cause instanceof TemporalFailure failure) {
            String kind =
                    failure.getClass().getSimpleName().replace("Failure", "").toLowerCase(Locale.ROOT);
            String message = failure.getOriginalMessage();
            return kind + (message == null || message.isEmpty() ? "" : " (" + message + ")");
        }
        return TemporalConnection.firstLine(ended);
    }

    private static long size(PlanRequest request) {
        try {
            return JSON.writeValueAsBytes(request).length;
        } catch (JsonProcessingException e) {
            throw new TemporalException(
                    FailureKind.REJECTED_BEFORE_RUNNING,
                    request.source() + ": the plan request cannot be written as JSON: " + e.getOriginalMessage());
        }
    }
}
