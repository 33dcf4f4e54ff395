package dev.planvm.tools.approval;

import dev.planvm.tools.call.Call;
import java.time.Instant;
import java.util.Objects;

/**
 * The signal that a {@code sleep} call has time left in a run that waits for its timer instead of holding a thread
 * ({@link Approvals#waitsForTimer}): like {@link ApprovalRequired}, it is not a failure; the VM ends the run
 * {@code waiting} before the step commits, the run store keeps the wake time, and continuing the run when it is
 * due (a server's timer, or a resume) runs the step again, which then finds the sleep over.
 */
public final class SleepRequired extends ApprovalRequired {
    private static final long serialVersionUID = 1L;

    private final Instant wakeAt;

    public SleepRequired(Call.ToolCall call, Instant wakeAt) {
        super(call, "sleeping until " + Objects.requireNonNull(wakeAt, "wakeAt"));
        this.wakeAt = wakeAt;
    }

    /** When the sleep ends. */
    public Instant wakeAt() {
        return wakeAt;
    }
}
