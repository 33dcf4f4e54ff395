package dev.planvm.vm.plantools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.internal.ChildRunWaiting;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The link of one run's call chain that makes its plan-tool calls child runs of that run. It comes
 * after the run's permission and approval guards (the call of the plan tool itself is checked like any
 * call) and before the run mode's link, so that the child runs in the parent's mode: a dry run, a
 * recording or a replay of the same cassette, with the same token budget. The child gets its parent's
 * options — tool policy, approval rules, step limit, clock — and its reviewer, so it can
 * never do what its parent may not; its own guards narrow further. In a stored run the child is a stored
 * run too, named after its parent and the call's seq_no ({@link RunJournal#child}); a resume of the parent
 * continues an interrupted child instead of starting it again, and takes the answer of a child that ended
 * before the run could commit the step (its process died in between) without running any of it again. A child that waits for approval or input
 * makes the run wait too ({@link ChildRunWaiting}); the child keeps its waits under its own id. A stop request for the run (its {@link RunControl})
 * stops the child too, and then the run, as the request asked. The run's listeners hear of each child's
 * start and end (the trace names the child's id in the call's entry).
 */
public final class PlanToolCalls implements CallInterceptor {

    private final Map<String, PlanTool> tools;
    private final ParentRun parent;
    private final RunOptions own;
    private final Approvals approvals;
    private final RunJournal journal;
    private final RunListener listeners;
    private final RunClock clock;
    private final RunControl control;

    /**
     * @param tools     the VM's plan tools by canonical name ({@link #index})
     * @param parent    the run's session and VM
     * @param own       the run's own options (they reach the child, which can only narrow them)
     * @param approvals the run's own reviewer, or {@code null} for the VM's
     * @param journal   the run's journal, or {@code null}
     * @param listeners the run's listeners (their one guarded fan-out), told of each child run
     * @param clock     the run's clock, which the child runs with too
     * @param control   the run's control, which stops its children too ({@code null}: none)
     */
    public PlanToolCalls(
            Map<String, PlanTool> tools,
            ParentRun parent,
            RunOptions own,
            Approvals approvals,
            RunJournal journal,
            RunListener listeners,
            RunClock clock,
            RunControl control) {
        this.tools = tools;
        this.parent = Objects.requireNonNull(parent, "parent");
        this.own = Objects.requireNonNull(own, "own");
        this.approvals = approvals;
        this.journal = journal;
        this.listeners = Objects.requireNonNull(listeners, "listeners");
        this.clock = clock;
        this.control = control;
    }

    /** The plan tools among {@code tools}, by canonical name (none: a run needs no such link). */
    public static Map<String, PlanTool> index(Collection<Tool> tools) {
        Map<String, PlanTool> index = new HashMap<>();
        tools.forEach(tool -> {
            if (tool instanceof PlanTool planTool) {
                index.put(planTool.canonicalName(), planTool);
            }
        });
        return Map.copyOf(index);
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        if (!(call instanceof Call.ToolCall toolCall)) {
            return chain.proceed(call);
        }
        PlanTool tool = tools.get(toolCall.canonical());
        if (tool == null || parent.answersWhole(toolCall.tool())) {
            return chain.proceed(call);
        }
        long start = System.nanoTime();
        List<Interaction> children = new ArrayList<>(); // the child's, when recording
        JsonNode output;
        try {
            output = tool.call(toolCall, this, children::addAll);
        } catch (ChildRunWaiting waiting) {
            parent.recordedWaiting(
                    toolCall.tool(),
                    toolCall.params(),
                    (System.nanoTime() - start) / 1_000_000,
                    waiting.getMessage(),
                    children);
            throw waiting;
        } catch (ToolException failure) {
            parent.recorded(
                    toolCall.tool(),
                    toolCall.params(),
                    null,
                    (System.nanoTime() - start) / 1_000_000,
                    failure.getMessage() == null ? "failed" : failure.getMessage(),
                    children);
            throw failure;
        }
        parent.recorded(
                toolCall.tool(), toolCall.params(), output, (System.nanoTime() - start) / 1_000_000, null, children);
        return output;
    }

    /** Why the run tree stops, once its runs executed every step they share, else {@code null}. */
    String stepsSpent() {
        return parent.stepsSpent();
    }

    /** Whether the child runs in a dry run. */
    boolean dryRun() {
        return parent.dryRun();
    }

    /**
     * Runs {@code tool}'s plan as a child of this run's step that makes {@code call}, with these inputs; a
     * recording child's interactions go to {@code recorded}.
     *
     * @throws ChildRunWaiting when the child stopped waiting for approval or input: this run waits too
     */
    ChildRuns.Outcome runChild(
            PlanTool tool, Map<String, JsonNode> inputs, Call.ToolCall call, Consumer<List<Interaction>> recorded) {
        int seqNo = call.context().seqNo();
        RunOptions options = own.withKeepGoing(false).withClock(own.clock() != null ? own.clock() : clock);
        List<String> problems = parent.problems(tool.plan(), options);
        if (!problems.isEmpty()) {
            return new ChildRuns.Outcome(null, problems);
        }
        ChildRunner elsewhere = parent.elsewhere();
        if (elsewhere != null) {
            String remoteId = elsewhere.childId(tool, call);
            tell(l -> l.childStarted(seqNo, tool.name(), remoteId));
            ChildRuns.Outcome outcome = elsewhere.run(remoteId, tool, inputs, call, options, recorded);
            if (outcome.result() != null) {
                tell(l -> l.childFinished(
                        seqNo, tool.name(), remoteId, outcome.result().status()));
            }
            return outcome;
        }
        RunJournal.Child child =
                journal == null ? null : journal.child(tool.plan(), inputs, seqNo, parent.modeLabel(), options);
        String childId = child == null ? null : child.journal().runId();
        tell(l -> l.childStarted(seqNo, tool.name(), childId));
        if (child != null && child.finished() != null) { // it ended before this run could commit its answer
            tell(l -> l.childFinished(
                    seqNo, tool.name(), childId, child.finished().status()));
            return new ChildRuns.Outcome(child.finished(), List.of());
        }
        // the parent's control: a stop request reaches the child at its next commit point
        RunResult result = parent.run(
                new ParentRun.ChildRequest(
                        tool.plan(),
                        child == null ? Checkpoint.start(new LinkedHashMap<>(inputs)) : child.start(),
                        options,
                        child == null || child.approvals() == null ? approvals : child.approvals(),
                        child == null ? null : child.journal(),
                        control),
                recorded);
        tell(l -> l.childFinished(seqNo, tool.name(), childId, result.status()));
        if (result.waiting() && result.pending() != null) {
            throw new ChildRunWaiting(
                    call,
                    childId,
                    result.pending(),
                    (childId == null ? "the child run" : "child run " + childId) + " of plan tool '" + tool.name()
                            + "' waits at its seq_no " + result.pending().seqNo() + ": "
                            + result.error().message(),
                    result.error().kind());
        }
        return new ChildRuns.Outcome(result, List.of());
    }

    private void tell(Consumer<RunListener> event) {
        event.accept(listeners);
    }
}
