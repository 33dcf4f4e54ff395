package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one run brings beside the VM's configuration, in one immutable value: built once by a
 * front end (the command line, the server, the MCP server, Temporal, an embedder) and carried to
 * {@link PlanVm#run(RunRequest)}, the one way every run goes.
 *
 * <pre>{@code
 * RunResult result = vm.run(RunRequest.builder(plan)
 *         .inputs(Map.of("name", TextNode.valueOf("Ann")))
 *         .mode(RunMode.replay(cassette, false))
 *         .options(RunOptions.DEFAULT.withKeepGoing(true))
 *         .listener(myListener)
 *         .build());
 * }</pre>
 *
 * @param plan          the plan to run, or {@code null} in a request that continues a stored run (its plan is
 *                      the stored one: {@code DurableRuns.resume}, {@code approve}, {@code rerun})
 * @param start         where the run starts: a fresh start with its inputs (the default: no inputs), or a
 *                      checkpoint of a stored run
 * @param mode          live (the default), record, replay or dry run; a session's mode when it has a session
 * @param session       a session shared with other runs and calls (an agent's planning and re-plans), or
 *                      {@code null}: the run gets a session of its own in {@code mode}
 * @param options       this run's narrowing of the VM's settings (tool policy, approval rules, step limit,
 *                      clock, keep-going); see {@link RunOptions}
 * @param listeners     listeners of this run only, after the VM's: they hear its run, step and call events
 *                      (calls may run on other threads)
 * @param approvals     who decides this run's approvals, or {@code null} for the VM's reviewer, else nobody
 *                      (the run waits)
 * @param control       stops the run from outside, or {@code null}
 * @param journal       where committed steps are made durable (a failure to record stops the run), or
 *                      {@code null}
 * @param checked       the outcome of {@link PlanVm#check}, or {@code null}: a run whose request was checked
 *                      (for this very plan, mode, options and start) is not checked again
 */
public record RunRequest(
        Plan plan,
        Checkpoint start,
        RunMode mode,
        RunSession session,
        RunOptions options,
        List<RunListener> listeners,
        Approvals approvals,
        RunControl control,
        RunJournal journal,
        Checked checked) {

    /**
     * What {@link PlanVm#check} found: the warnings of a run that may start. Only the VM makes one; it
     * holds for the plan, mode, options and start position it was made for.
     */
    public static final class Checked {
        private final Plan plan;
        private final RunMode mode;
        private final RunOptions options;
        private final int position;
        private final List<String> warnings;

        Checked(Plan plan, RunMode mode, RunOptions options, int position, List<String> warnings) {
            this.plan = plan;
            this.mode = mode;
            this.options = options;
            this.position = position;
            this.warnings = List.copyOf(warnings);
        }

        /** What may fail without stopping the run from starting, one sentence each, starting with the seq_no. */
        public List<String> warnings() {
            return warnings;
        }

        /** Whether this check holds for {@code request}: the same plan, mode, options and start position. */
        boolean covers(RunRequest request) {
            // the same objects most often: equals of these records would link through invokedynamic first
            return plan == request.plan()
                    && (mode == request.mode() || mode.equals(request.mode()))
                    && (options == request.options() || options.equals(request.options()))
                    && position == request.start().position();
        }
    }

    /**
     * @throws IllegalArgumentException when the session's mode is not {@code mode}
     */
    public RunRequest {
        start = start == null ? Checkpoint.start(Map.of()) : start;
        if (session != null && mode != null && !session.mode().equals(mode)) {
            throw new IllegalArgumentException("the run's mode (" + mode.label() + ") is not its session's ("
                    + session.mode().label() + ")");
        }
        mode = mode != null ? mode : session != null ? session.mode() : RunMode.live();
        options = options == null ? RunOptions.DEFAULT : options;
        listeners = List.copyOf(listeners);
    }

    /** A request to run {@code plan}: from its start with no inputs, live, no option, listener or journal. */
    public static Builder builder(Plan plan) {
        return new Builder().plan(Objects.requireNonNull(plan, "plan"));
    }

    /**
     * A request with no plan of its own: what one session of a stored run brings (mode, listeners, reviewer,
     * control, a clock in its options) when {@code DurableRuns} continues or reruns that run.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** {@code plan} from its start with {@code inputs}, in {@code mode}. */
    public static RunRequest of(Plan plan, Map<String, JsonNode> inputs, RunMode mode) {
        return builder(plan).inputs(inputs).mode(mode).build();
    }

    /** A builder holding this request's values (its check is kept only while plan, mode, options and start stay). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.plan = plan;
        b.start = start;
        b.mode = mode;
        b.session = session;
        b.options = options;
        b.listeners.addAll(listeners);
        b.approvals = approvals;
        b.control = control;
        b.journal = journal;
        b.checked = checked;
        return b;
    }

    /** This request with {@code value} as its options (a check made for other options no longer holds). */
    public RunRequest withOptions(RunOptions value) {
        return toBuilder().options(value).build();
    }

    /** This request with {@code value} as its journal. */
    public RunRequest withJournal(RunJournal value) {
        return toBuilder().journal(value).build();
    }

    /** This request with {@code value} deciding its approvals. */
    public RunRequest withApprovals(Approvals value) {
        return toBuilder().approvals(value).build();
    }

    /** Builds a {@link RunRequest}; not thread-safe. */
    public static final class Builder {
        private Plan plan;
        private Checkpoint start;
        private RunMode mode;
        private RunSession session;
        private RunOptions options = RunOptions.DEFAULT;
        private final List<RunListener> listeners = new ArrayList<>();
        private Approvals approvals;
        private RunControl control;
        private RunJournal journal;
        private Checked checked;

        private Builder() {}

        public Builder plan(Plan value) {
            plan = value;
            return this;
        }

        /** Start fresh with these inputs (and secrets): position 0, no step run. */
        public Builder inputs(Map<String, JsonNode> inputs) {
            return start(Checkpoint.start(inputs));
        }

        /** Start at {@code value}: a fresh start, or where a stored run's last committed step left it. */
        public Builder start(Checkpoint value) {
            start = value;
            return this;
        }

        /** Live, record, replay or dry run; leave it out with a {@link #session}, which has its mode. */
        public Builder mode(RunMode value) {
            mode = value;
            return this;
        }

        /** Run in this session (its mode, call chain, token budget and calls started early). */
        public Builder session(RunSession value) {
            session = value;
            return this;
        }

        public Builder options(RunOptions value) {
            options = Objects.requireNonNull(value, "options");
            return this;
        }

        /** Observes this run: its steps, its calls and conditions, its child runs (see {@link RunListener}). */
        public Builder listener(RunListener value) {
            listeners.add(Objects.requireNonNull(value, "listener"));
            return this;
        }

        public Builder listeners(List<? extends RunListener> values) {
            listeners.addAll(values);
            return this;
        }

        public Builder approvals(Approvals value) {
            approvals = value;
            return this;
        }

        public Builder control(RunControl value) {
            control = value;
            return this;
        }

        public Builder journal(RunJournal value) {
            journal = value;
            return this;
        }

        Builder checked(Checked value) {
            checked = value;
            return this;
        }

        public RunRequest build() {
            RunRequest request =
                    new RunRequest(plan, start, mode, session, options, listeners, approvals, control, journal, null);
            return checked != null && checked.covers(request)
                    ? new RunRequest(
                            plan,
                            request.start(),
                            request.mode(),
                            session,
                            request.options(),
                            listeners,
                            approvals,
                            control,
                            journal,
                            checked)
                    : request;
        }
    }
}
