package dev.planvm.vm.internal;

/**
 * The signal that a child run (a plan tool's) stopped because its parent's {@link dev.planvm.vm.run.RunControl} asked the
 * whole tree to stop: not a failure of the parent's step. The parent's step is not committed and the
 * parent stops as its control asked (interrupted: a resume continues the child; cancelled: failed). It
 * passes through the call chain untouched (it is not a {@link dev.planvm.tools.ToolException}).
 */
public final class ChildRunStopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ChildRunStopped(String message) {
        super(message, null, false, false);
    }
}
