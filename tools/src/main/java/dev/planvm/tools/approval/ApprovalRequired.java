package dev.planvm.tools.approval;

import dev.planvm.tools.call.Call;
import java.util.Objects;

/**
 * The signal that a tool call needs a reviewer's approval that nobody has given yet. It is not a
 * failure: the VM ends the run with status {@code waiting} before the call is made, and the step is
 * not committed, so approving the call later runs the step again. It passes through the call chain's
 * retry link untouched (it is not a {@link dev.planvm.tools.ToolException}).
 */
public class ApprovalRequired extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Call.ToolCall call;

    public ApprovalRequired(Call.ToolCall call) {
        this(
                call,
                "waiting for approval to call tool '"
                        + Objects.requireNonNull(call, "call").tool() + "'");
    }

    /** A wait for a person of another kind ({@link InputRequired}): the same signal, its own message. */
    protected ApprovalRequired(Call.ToolCall call, String message) {
        super(message, null, false, false);
        this.call = Objects.requireNonNull(call, "call");
    }

    /** The call waiting for approval, its params interpolated. */
    public Call.ToolCall call() {
        return call;
    }
}
