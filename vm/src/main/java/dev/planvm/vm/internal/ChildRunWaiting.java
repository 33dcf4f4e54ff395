package dev.planvm.vm.internal;

import dev.planvm.tools.approval.ApprovalRequired;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.PendingCall;
import dev.planvm.vm.run.TypedFailure;
import java.util.Objects;

/**
 * The signal that a call's child run (a plan tool's) stopped waiting for a reviewer's approval or a
 * person's answer: like {@link ApprovalRequired}, not a failure. The parent's step is not committed and
 * the parent waits too; deciding or answering the child (through the parent or the child) continues the
 * child and then the parent, whose step runs again and continues the waiting child.
 */
public final class ChildRunWaiting extends ApprovalRequired implements TypedFailure {
    private static final long serialVersionUID = 1L;

    private final String childRunId;
    private final transient PendingCall pending;
    private final FailureKind kind;

    /**
     * @param call       the plan tool's call in the parent
     * @param childRunId the waiting child's id ({@code null}: it is not stored)
     * @param pending    the call the child (or a run below it) waits for
     * @param message    what the parent says it waits for
     * @param kind       what the child waits for: {@link FailureKind#WAITING_FOR_APPROVAL},
     *                   {@link FailureKind#WAITING_FOR_INPUT} or {@link FailureKind#WAITING_FOR_TIMER} (any other
     *                   kind is taken as approval)
     */
    public ChildRunWaiting(
            Call.ToolCall call, String childRunId, PendingCall pending, String message, FailureKind kind) {
        super(call, message);
        this.childRunId = childRunId;
        this.pending = Objects.requireNonNull(pending, "pending");
        this.kind = kind == FailureKind.WAITING_FOR_INPUT || kind == FailureKind.WAITING_FOR_TIMER
                ? kind
                : FailureKind.WAITING_FOR_APPROVAL;
    }

    /** What the child (or a run below it) waits for: a reviewer's approval or a person's input. */
    @Override
    public FailureKind kind() {
        return kind;
    }

    /** The waiting child's id, or {@code null} when it is not stored. */
    public String childRunId() {
        return childRunId;
    }

    /** The call the child (or a run below it) waits for, its seq_no the child's. */
    public PendingCall pending() {
        return pending;
    }
}
