package dev.planvm.vm.plantools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The run whose calls start child runs, as its plan-tool calls see it: its session (one run mode, one
 * cassette and one token budget for the whole tree of runs) and the VM that runs it. The VM gives one
 * to each run's {@link PlanToolCalls}.
 */
public interface ParentRun {

    /**
     * What a plan-tool call asks of its parent to run its child: a request like the parent's own, narrowed.
     *
     * @param plan      the plan tool's plan
     * @param start     where the child starts: a fresh start with the call's inputs, or a stored child's checkpoint
     * @param options   the child's options (the parent's, which it can only narrow)
     * @param approvals who decides the child's approvals, or {@code null} for the VM's reviewer
     * @param journal   where the child's committed steps are made durable, or {@code null}
     * @param control   the parent's control, which stops the child at its next commit point ({@code null}: none)
     */
    record ChildRequest(
            Plan plan,
            Checkpoint start,
            RunOptions options,
            Approvals approvals,
            RunJournal journal,
            RunControl control) {
        public ChildRequest {
            Objects.requireNonNull(plan, "plan");
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(options, "options");
        }
    }

    /**
     * Runs {@code child} in the parent's session and run tree. A failure while running is a failed result. In a
     * recording session the child records into a recording of its own, whose interactions go to {@code recorded}
     * once it ended (nothing otherwise).
     */
    RunResult run(ChildRequest child, Consumer<List<Interaction>> recorded);

    /** What stops {@code plan} from running in the parent's mode with {@code options} (empty: nothing). */
    List<String> problems(Plan plan, RunOptions options);

    /** The parent's run mode as stored and traced: {@code live}, {@code replay}, {@code record}, {@code dry-run}. */
    String modeLabel();

    /** Whether the session is a dry run (a child's {@code final_answer} is then made of placeholders). */
    boolean dryRun();

    /**
     * Whether the session replays a cassette that answers calls of plan tool {@code tool} with no child
     * run recorded (a cassette recorded before child runs were recorded): the call is then answered from
     * it, and no child runs.
     */
    boolean answersWhole(String tool);

    /**
     * In a recording session, records the call of plan tool {@code tool} with the answer its child run
     * gave ({@code error}: why it failed, when the recording keeps failures; else {@code null}), with the
     * child's own interactions nested under it ({@code children}): a VM with the plan tool replays the child
     * from them, one without it is answered whole. Nothing otherwise.
     */
    void recorded(
            String tool, JsonNode params, JsonNode output, long durationMs, String error, List<Interaction> children);

    /**
     * In a recording session, records the call of plan tool {@code tool} whose child run stopped waiting
     * ({@code reason}: what it waits for), with the child's interactions until then ({@code children}): a
     * session that continues the run into the same recording completes the call. Nothing otherwise.
     */
    default void recordedWaiting(
            String tool, JsonNode params, long durationMs, String reason, List<Interaction> children) {}

    /**
     * Why the run tree stops, once its runs executed every step they share ({@code --max-steps}), or
     * {@code null} while steps are left: a child that failed on a limit then fails its parent with this one
     * sentence, whichever child reached the limit first.
     */
    default String stepsSpent() {
        return null;
    }

    /** Where child runs run when not on the parent's VM (a Temporal child workflow), or {@code null}: on it. */
    default ChildRunner elsewhere() {
        return null;
    }
}
