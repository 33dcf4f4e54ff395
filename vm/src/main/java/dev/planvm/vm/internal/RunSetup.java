package dev.planvm.vm.internal;

import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.run.CallScheduler;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunLimits;
import java.util.Map;
import java.util.Objects;

/**
 * Everything one run needs, assembled by the VM from its configuration and the run's mode, part by named
 * part ({@link #builder}).
 *
 * @param listeners    the run's one fan-out to its listeners (the spans and the trace first when on)
 * @param journal      where committed steps are made durable, or {@code null}
 * @param maxSteps     the most steps the run executes (its tree counts them against the root's)
 * @param strict       whether a run that never set {@code final_answer} fails (else it is a warning)
 * @param placeholders whether call answers are dry-run placeholders
 * @param speculator   runs calls ahead of their turn, or {@code null} for a sequential run
 * @param control      stops the run from outside at a commit point, or {@code null}
 * @param retaining    whether the run keeps every step's record (a trace, a recorded cassette), so
 *                     that it counts against the run's memory budget
 * @param scheduler    what the speculator starts early calls with, and the run's clocks
 * @param clock        the run's clock, which its date/time helpers read
 * @param keepGoing    whether a failed step lets the run go on with the next one
 * @param tree         what the run shares with its parent and children: call slots and the step count
 * @param slots        the run's share of the tree's call slots ({@code null} in a sequential run: its calls
 *                     are made one by one on its own thread)
 */
public record RunSetup(
        Plan plan,
        Map<String, InstructionHandler<?>> handlers,
        CallChain chain,
        Listeners listeners,
        RunJournal journal,
        int maxSteps,
        boolean strict,
        RunLimits limits,
        Redactor redactor,
        boolean placeholders,
        Speculator speculator,
        RunControl control,
        boolean retaining,
        CallScheduler scheduler,
        RunClock clock,
        boolean keepGoing,
        RunTree tree,
        CallSlots.Member slots) {

    public RunSetup {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(chain, "chain");
        Objects.requireNonNull(listeners, "listeners");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(redactor, "redactor");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(tree, "tree");
        handlers = Map.copyOf(handlers);
    }

    /**
     * A setup to run {@code plan} with these handlers, its calls going through {@code chain}; every other part
     * is named on the builder (none: no listener, journal, control or speculator, nothing retained, a failed step
     * ends the run).
     */
    public static Builder builder(Plan plan, Map<String, InstructionHandler<?>> handlers, CallChain chain) {
        return new Builder(plan, handlers, chain);
    }

    /** Names each part of a {@link RunSetup}; see the record's parameters. */
    public static final class Builder {
        private final Plan plan;
        private final Map<String, InstructionHandler<?>> handlers;
        private final CallChain chain;
        private Listeners listeners = Listeners.NONE;
        private RunJournal journal;
        private RunControl control;
        private int maxSteps;
        private boolean strict;
        private RunLimits limits;
        private Redactor redactor;
        private boolean placeholders;
        private boolean retaining;
        private boolean keepGoing;
        private Speculator speculator;
        private CallScheduler scheduler;
        private RunClock clock;
        private RunTree tree;
        private CallSlots.Member slots;

        private Builder(Plan plan, Map<String, InstructionHandler<?>> handlers, CallChain chain) {
            this.plan = plan;
            this.handlers = handlers;
            this.chain = chain;
        }

        public Builder listeners(Listeners listeners) {
            this.listeners = listeners;
            return this;
        }

        public Builder journal(RunJournal journal) {
            this.journal = journal;
            return this;
        }

        public Builder control(RunControl control) {
            this.control = control;
            return this;
        }

        /** At most {@code maxSteps} steps, the values held to {@code limits}. */
        public Builder limits(int maxSteps, RunLimits limits) {
            this.maxSteps = maxSteps;
            this.limits = limits;
            return this;
        }

        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        public Builder redactor(Redactor redactor) {
            this.redactor = redactor;
            return this;
        }

        public Builder placeholders(boolean placeholders) {
            this.placeholders = placeholders;
            return this;
        }

        public Builder retaining(boolean retaining) {
            this.retaining = retaining;
            return this;
        }

        public Builder keepGoing(boolean keepGoing) {
            this.keepGoing = keepGoing;
            return this;
        }

        /** Calls made through {@code scheduler}, ahead of their turn by {@code speculator} ({@code null}: none). */
        public Builder calls(CallScheduler scheduler, Speculator speculator) {
            this.scheduler = scheduler;
            this.speculator = speculator;
            return this;
        }

        public Builder clock(RunClock clock) {
            this.clock = clock;
            return this;
        }

        /** The run is a run of {@code tree}, with {@code slots} its share of the tree's call slots (or {@code null}). */
        public Builder tree(RunTree tree, CallSlots.Member slots) {
            this.tree = tree;
            this.slots = slots;
            return this;
        }

        public RunSetup build() {
            return new RunSetup(
                    plan,
                    handlers,
                    chain,
                    listeners,
                    journal,
                    maxSteps,
                    strict,
                    limits,
                    redactor,
                    placeholders,
                    speculator,
                    control,
                    retaining,
                    scheduler,
                    clock,
                    keepGoing,
                    tree,
                    slots);
        }
    }

    /** Whether steps must be recorded: someone reads them. */
    boolean recording() {
        return !listeners.isEmpty() || journal != null;
    }
}
