package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.tools.cassette.Recording;
import dev.planvm.vm.internal.RunTree;
import dev.planvm.vm.plantools.ChildRunner;
import dev.planvm.vm.plantools.ParentRun;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.function.Consumer;

/**
 * A run of a {@link PlanVm}, as its plan-tool calls see it ({@link ParentRun}): its children run on the same VM, in
 * the same session (one run mode, one cassette, one token budget) and in the same run tree (one pool of call
 * slots, one step count), and in a recording session each call is recorded with its child's interactions nested
 * under it. The VM assembles a run; this records its child runs. In this package (not {@code vm.plantools}, whose
 * {@link dev.planvm.vm.plantools.PlanToolCalls} uses it) because a child run is a {@link RunRequest} of the VM.
 */
final class VmParentRun implements ParentRun {

    private final PlanVm vm;
    private final RunSession session;
    private final RunTree tree;
    private final RunMode mode;
    private final Redactor redactor;
    private final ChildRunner elsewhere;

    /**
     * @param elsewhere where child runs run when not on {@code vm} (a Temporal child workflow), or {@code null}
     */
    VmParentRun(PlanVm vm, RunSession session, RunTree tree, Redactor redactor, ChildRunner elsewhere) {
        this.vm = vm;
        this.session = session;
        this.tree = tree;
        this.mode = session.mode();
        this.redactor = redactor;
        this.elsewhere = elsewhere;
    }

    @Override
    public RunResult run(ChildRequest child, Consumer<List<Interaction>> recorded) {
        // recording, the child records into a recording of its own, nested under the call in the cassette
        Recording own = mode instanceof RunMode.Record record
                ? (record.recording().keepsFailures() ? Recording.keepingFailures() : new Recording())
                : null;
        RunRequest request = RunRequest.builder(child.plan())
                .start(child.start())
                .control(child.control())
                .session(own == null ? session : vm.session(new RunMode.Record(own), session.budget()))
                .options(child.options())
                .approvals(child.approvals())
                .journal(child.journal())
                .build();
        RunResult result = vm.runChild(request, tree);
        if (own != null) {
            recorded.accept(own.cassette().interactions());
        }
        return result;
    }

    @Override
    public List<String> problems(Plan plan, RunOptions options) {
        return vm.childProblems(plan, mode, options);
    }

    @Override
    public ChildRunner elsewhere() {
        return elsewhere;
    }

    @Override
    public String stepsSpent() {
        return tree.stepsSpent() ? tree.stepLimitMessage() : null;
    }

    @Override
    public String modeLabel() {
        return mode.label();
    }

    @Override
    public boolean dryRun() {
        return mode instanceof RunMode.DryRun;
    }

    @Override
    public boolean answersWhole(String tool) {
        return mode instanceof RunMode.Replay replay
                && replay.cassette().flat().stream()
                        .anyMatch(i -> i instanceof Interaction.ToolInteraction recorded
                                && recorded.tool().equals(tool)
                                && !recorded.childRun());
    }

    @Override
    public void recorded(
            String tool, JsonNode params, JsonNode output, long durationMs, String error, List<Interaction> children) {
        if (mode instanceof RunMode.Record record
                && (error == null || record.recording().keepsFailures())) {
            JsonNode answer = error == null && output != null ? redactor.redact(output) : NullNode.getInstance();
            record.recording().add(entry(tool, params, answer, durationMs, error, children, false));
        }
    }

    @Override
    public void recordedWaiting(
            String tool, JsonNode params, long durationMs, String reason, List<Interaction> children) {
        if (mode instanceof RunMode.Record record) {
            record.recording().add(entry(tool, params, NullNode.getInstance(), durationMs, reason, children, true));
        }
    }

    /** The cassette entry of a plan-tool call whose child run was recorded, its secrets redacted. */
    private Interaction.ToolInteraction entry(
            String tool,
            JsonNode params,
            JsonNode output,
            long durationMs,
            String error,
            List<Interaction> children,
            boolean waiting) {
        return new Interaction.ToolInteraction(
                tool,
                redactor.redact(params),
                output,
                durationMs,
                List.of(), // no chunks: a child's answer is not streamed
                null, // no tokens of its own: the child's calls hold them
                error == null ? null : redactor.redact(error),
                null, // a failure's kind: the default
                true, // a child run was recorded
                children,
                waiting);
    }
}
