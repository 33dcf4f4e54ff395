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

/**
 * Everything one run needs, assembled by the VM from its configuration and the run's mode.
 *
 * @param listeners    the run's one fan-out to its listeners (the spans and the trace first when on)
 * @param journal      where committed steps are made durable, or {@code null}
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
        handlers = Map.copyOf(handlers);
    }

    /** Whether steps must be recorded: someone reads them. */
    boolean recording() {
        return !listeners.isEmpty() || journal != null;
    }
}
