package dev.planvm.vm.run;

import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.CallListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one run brings beside the VM's configuration: its own observers (after the VM's), its
 * {@link RunOptions}, who decides its approvals, and a {@link RunControl} to stop it from outside.
 * Immutable; start from {@link #NONE} and use the {@code with} methods.
 *
 * @param listeners     run listeners of this run only
 * @param callListeners call listeners of this run only (calls may run on other threads)
 * @param options       this run's narrowing of the VM's settings
 * @param approvals     who decides this run's approvals, or {@code null} for the VM's reviewer
 *                      ({@code PlanVmBuilder.approvals}), else nobody (the run waits)
 * @param control       stops the run from outside, or {@code null}
 */
public record RunHooks(
        List<RunListener> listeners,
        List<CallListener> callListeners,
        RunOptions options,
        Approvals approvals,
        RunControl control) {

    /** No listener, no option, the VM's reviewer, no control. */
    public static final RunHooks NONE = new RunHooks(List.of(), List.of(), RunOptions.DEFAULT, null, null);

    public RunHooks {
        listeners = List.copyOf(listeners);
        callListeners = List.copyOf(callListeners);
        Objects.requireNonNull(options, "options");
    }

    /** Hooks with these run listeners and nothing else. */
    public static RunHooks of(List<RunListener> listeners) {
        return NONE.withListeners(listeners);
    }

    public RunHooks withListeners(List<RunListener> more) {
        List<RunListener> all = new ArrayList<>(listeners);
        all.addAll(more);
        return new RunHooks(all, callListeners, options, approvals, control);
    }

    public RunHooks withCallListeners(List<CallListener> more) {
        List<CallListener> all = new ArrayList<>(callListeners);
        all.addAll(more);
        return new RunHooks(listeners, all, options, approvals, control);
    }

    public RunHooks withOptions(RunOptions value) {
        return new RunHooks(listeners, callListeners, value, approvals, control);
    }

    public RunHooks withApprovals(Approvals value) {
        return new RunHooks(listeners, callListeners, options, value, control);
    }

    public RunHooks withControl(RunControl value) {
        return new RunHooks(listeners, callListeners, options, approvals, value);
    }
}
