package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.JsonEquality;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.PlanToolSource;
import dev.planvm.temporal.contract.PlanWorkflow;
import dev.planvm.temporal.contract.RunFailure;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.plantools.ChildRunner;
import dev.planvm.vm.plantools.ChildRuns;
import dev.planvm.vm.plantools.PlanTool;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import io.temporal.failure.ChildWorkflowFailure;
import io.temporal.workflow.ChildWorkflowOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs each plan-tool call of a plan workflow as a Temporal child workflow of the same type on the same
 * task queue: its request is the plan tool's plan with the call's params as its inputs, the parent's mode,
 * settings, clock and plan tools (so grandchildren run too). The child's id is the parent's id, a slash and
 * the call's {@code seq_no} ({@code PARENT/2}); a further call at the same {@code seq_no} — an element of a
 * {@code for_each}, a step run again after a jump — adds its count ({@code PARENT/2.1}, {@code PARENT/2.2}),
 * in the order the calls start, which the workflow makes deterministic. The call was checked before it
 * gets here (params against {@code inputs}); the child's {@code final_answer} is checked against
 * {@code output} after ({@link PlanTool}).
 */
final class ChildWorkflows implements ChildRunner {

    private final PlanRequest parent;
    private final Map<String, PlanToolSource> sources;
    /** How many child workflows each {@code seq_no} started so far. */
    private final Map<Integer, Integer> started = new HashMap<>();
    /** In a replay, how many recorded calls of each plan tool and params the children took so far. */
    private final Map<String, Integer> replayed = new HashMap<>();
    /** In a replay, the parent's cassette, read once. */
    private Cassette cassette;

    /**
     * @param parent  the request of the workflow whose calls these are
     * @param sources the plan tools' plans by plan-tool name
     */
    ChildWorkflows(PlanRequest parent, Map<String, PlanToolSource> sources) {
        this.parent = parent;
        this.sources = Map.copyOf(sources);
    }

    @Override
    public String childId(PlanTool tool, Call.ToolCall call) {
        int seqNo = call.context().seqNo();
        int count = started.merge(seqNo, 1, Integer::sum) - 1;
        return Workflow.getInfo().getWorkflowId() + "/" + seqNo + (count == 0 ? "" : "." + count);
    }

    @Override
    public ChildRuns.Outcome run(
            String childId,
            PlanTool tool,
            Map<String, JsonNode> inputs,
            Call.ToolCall call,
            RunOptions options,
            Consumer<List<Interaction>> recorded) {
        PlanToolSource source = sources.get(tool.name());
        RunClock clock = options.clock();
        PlanRequest request = new PlanRequest(
                source.source(),
                source.plan(),
                inputs,
                List.of(), // a secret reaches the child as its reference, which the workers resolve
                parent.mode(),
                childCassette(call),
                parent.dryRunConditions(),
                parent.settings(),
                clock == null ? parent.now() : clock.now().toString(),
                clock == null ? parent.zone() : clock.zone().getId(),
                parent.planTools(),
                parent.maxPlanDepth(),
                TemporalSpans.traceparent()); // the child's run span starts under this call's span: one trace
        PlanWorkflow child = Workflow.newChildWorkflowStub(
                PlanWorkflow.class,
                ChildWorkflowOptions.newBuilder()
                        .setWorkflowId(childId)
                        .setTaskQueue(Workflow.getInfo().getTaskQueue())
                        .setStaticSummary("plan tool '" + tool.name() + "' at seq_no "
                                + call.context().seqNo() + " of "
                                + Workflow.getInfo().getWorkflowId())
                        .build());
        PlanResponse response;
        try {
            response = child.run(request);
        } catch (ChildWorkflowFailure failure) {
            Throwable cause = failure.getCause() == null ? failure : failure.getCause();
            throw ToolException.permanent("child workflow " + childId + " of plan tool '" + tool.name()
                    + "' ended without an answer: " + cause.getMessage());
        }
        if (response.status().equals("rejected") || response.status().equals("invalid")) {
            return new ChildRuns.Outcome(null, response.problems());
        }
        if (response.cassette() != null && response.cassette().isObject()) {
            recorded.accept(Cassette.fromJson(response.cassette(), childId + " (cassette)")
                    .interactions());
        }
        RunStatus status = RunStatus.ofLabel(response.status());
        RunError error = response.error() == null
                ? null
                : new RunError(
                        response.error().seqNo(),
                        response.error().type(),
                        response.error().message(),
                        null,
                        null,
                        kindOf(response.error()));
        return new ChildRuns.Outcome(
                new RunResult(
                        status,
                        response.finalAnswer(),
                        Map.of(),
                        error,
                        response.steps(),
                        Duration.ZERO,
                        response.trace(),
                        response.warnings(),
                        null),
                List.of());
    }

    /**
     * What the child replays: the interactions recorded under the same call of the recording (the n-th call of
     * this plan tool with these params gets the n-th recorded one's nested interactions), as a local replay
     * serves them — so two children making the same call with different recorded answers each get their own.
     * The parent's whole cassette when it is not a replay, or the call was recorded without its child run (a
     * cassette of an earlier version) or not with these params (a secret in them is recorded redacted).
     */
    private JsonNode childCassette(Call.ToolCall call) {
        if (!"replay".equals(parent.mode()) || parent.cassette() == null) {
            return parent.cassette();
        }
        if (cassette == null) {
            cassette = Cassette.fromJson(parent.cassette(), "the parent's cassette");
        }
        List<Interaction.ToolInteraction> recorded = cassette.interactions().stream()
                .filter(i -> i instanceof Interaction.ToolInteraction)
                .map(i -> (Interaction.ToolInteraction) i)
                .filter(i ->
                        i.tool().equals(call.tool()) && i.childRun() && JsonEquality.equal(i.params(), call.params()))
                .toList();
        int taken = replayed.merge(call.tool() + "\n" + call.params(), 1, Integer::sum) - 1;
        if (taken >= recorded.size() || recorded.get(taken).children().isEmpty()) {
            return parent.cassette();
        }
        return new Cassette(recorded.get(taken).children(), cassette.clock()).toJson();
    }

    /** The kind the child's worker sent; a step failure from a worker older than the field. */
    private static FailureKind kindOf(RunFailure failure) {
        FailureKind kind = FailureKind.ofLabel(failure.kind());
        return kind == null ? FailureKind.STEP_FAILED : kind;
    }
}
