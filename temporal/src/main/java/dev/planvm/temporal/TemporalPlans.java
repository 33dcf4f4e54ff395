package dev.planvm.temporal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.temporal.contract.InputAnswer;
import dev.planvm.temporal.contract.PlanProgress;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.PlanWorkflow;
import dev.planvm.temporal.contract.WaitingInput;
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
import io.temporal.client.WorkflowUpdateException;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.TemporalFailure;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
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
     * Starts a plan workflow and returns without waiting. When the request carries no {@code traceparent} and
     * a span is current here (OpenTelemetry), the request carries that span's, and the workflow's run span is
     * its child.
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
        if (request.traceparent() == null) { // the workflow's run span becomes a child of the caller's span
            request = request.toBuilder().traceparent(currentTraceparent()).build();
        }
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

    /**
     * Answers the {@code human_input} call a running plan workflow waits for (its {@code answer} update); the run
     * goes on. A wrong answer is refused with the reason and the workflow keeps waiting.
     *
     * @param seqNo the {@code seq_no} of the call to answer, or {@code null} for the only one waiting
     * @return the {@code seq_no} of the call answered
     * @throws TemporalException {@link FailureKind#REJECTED_BEFORE_RUNNING} for an answer that does not fit the
     *                           input, {@link FailureKind#CONFLICT} when no such call waits, {@link
     *                           FailureKind#NO_SUCH_RUN} or {@link FailureKind#UNAVAILABLE}
     */
    public int answer(String workflowId, Integer seqNo, JsonNode value) {
        WorkflowStub stub = client.newUntypedWorkflowStub(workflowId);
        try {
            return stub.update("answer", Integer.class, new InputAnswer(seqNo, value));
        } catch (WorkflowUpdateException refused) {
            Throwable cause = refused.getCause();
            if (cause instanceof ApplicationFailure failure) {
                boolean wrong = IllegalArgumentException.class.getName().equals(failure.getType());
                throw new TemporalException(
                        wrong ? FailureKind.REJECTED_BEFORE_RUNNING : FailureKind.CONFLICT,
                        "workflow '" + workflowId + "' keeps waiting: " + failure.getOriginalMessage(),
                        refused);
            }
            throw new TemporalException(
                    FailureKind.CONFLICT, "workflow '" + workflowId + "' took no answer: " + why(refused), refused);
        } catch (WorkflowNotFoundException missing) {
            throw endedOrMissing(stub, workflowId, missing);
        } catch (WorkflowException ended) {
            throw new TemporalException(
                    FailureKind.CONFLICT, "workflow '" + workflowId + "' waits for no answer: " + why(ended), ended);
        } catch (StatusRuntimeException unreachable) {
            if (unreachable.getStatus().getCode() == io.grpc.Status.Code.NOT_FOUND) {
                throw endedOrMissing(stub, workflowId, unreachable);
            }
            throw new TemporalException(
                    FailureKind.UNAVAILABLE,
                    "cannot answer workflow '" + workflowId + "': " + TemporalConnection.firstLine(unreachable),
                    unreachable);
        }
    }

    /** An update found no running workflow: it has ended (a conflict), or there is none. */
    private static TemporalException endedOrMissing(WorkflowStub stub, String workflowId, Exception cause) {
        try {
            WorkflowExecutionStatus status = stub.describe().getStatus();
            return new TemporalException(
                    FailureKind.CONFLICT,
                    "workflow '" + workflowId + "' has ended ("
                            + status.name()
                                    .substring("WORKFLOW_EXECUTION_STATUS_".length())
                                    .toLowerCase(Locale.ROOT)
                            + ") and waits for no answer",
                    cause);
        } catch (RuntimeException gone) {
            return notFound(workflowId, cause);
        }
    }

    /** The {@code human_input} calls a running plan workflow waits for (a worker answers the query). */
    public List<WaitingInput> waitingInputs(String workflowId) {
        WorkflowStub stub = client.newUntypedWorkflowStub(workflowId);
        try {
            return List.of(stub.query("inputs", WaitingInput[].class));
        } catch (WorkflowNotFoundException missing) {
            throw notFound(workflowId, missing);
        } catch (StatusRuntimeException unreachable) {
            throw new TemporalException(
                    FailureKind.UNAVAILABLE,
                    "cannot read workflow '" + workflowId + "': " + TemporalConnection.firstLine(unreachable),
                    unreachable);
        }
    }

    /** The W3C {@code traceparent} of the current span (the caller's), or {@code null} when there is none. */
    private static String currentTraceparent() {
        io.opentelemetry.api.trace.SpanContext span =
                io.opentelemetry.api.trace.Span.current().getSpanContext();
        if (!span.isValid()) {
            return null;
        }
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-"
                + span.getTraceFlags().asHex();
    }

    /** {@link #start} with a fresh id, then {@link #result}. */
    public PlanResponse run(PlanRequest request) {
        return result(start(request, null));
    }

    /**
     * A plan workflow as JSON, like {@code planvm show} prints a stored run: its status, plan,
     * inputs, mode, result and error, the trace entry of every committed step, and (once it ended) the child
     * workflows its plan-tool calls ran ({@code children}: seq_no, tool, workflow id). A running
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
            WaitingInput[] inputs = stub.query("inputs", WaitingInput[].class);
            if (inputs.length > 0) {
                document.put("status", "waiting");
                ArrayNode waiting = document.putArray("waiting_for");
                for (WaitingInput input : inputs) {
                    waiting.addObject()
                            .put("seq_no", input.seqNo())
                            .put("tool", "human_input")
                            .set("params", input.params());
                }
            }
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
        if (!response.failedSteps().isEmpty()) { // a run that kept going: as a local trace lists them
            ArrayNode failed = document.putArray("failed_steps");
            response.failedSteps().forEach(step -> {
                ObjectNode entry =
                        failed.addObject().put("seq_no", step.seqNo()).put("type", step.type());
                if (step.tool() != null) {
                    entry.put("tool", step.tool());
                }
                entry.put("kind", step.kind()).put("message", step.message());
            });
        }
        document.put("step_count", response.steps());
        document.set("steps", trace != null && trace.has("steps") ? trace.get("steps") : JSON.createArrayNode());
        ArrayNode children = JSON.createArrayNode();
        if (trace != null) {
            trace.path("calls").forEach(call -> {
                if (call.hasNonNull("child_run_id")) {
                    children.addObject()
                            .put("seq_no", call.path("seq_no").asInt())
                            .put("tool", call.path("tool").asText())
                            .put("workflow", call.get("child_run_id").asText());
                }
            });
        }
        if (!children.isEmpty()) {
            document.set("children", children); // the child workflows of its plan-tool calls
        }
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
