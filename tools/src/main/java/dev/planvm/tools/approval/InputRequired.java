package dev.planvm.tools.approval;

import dev.planvm.tools.call.Call;

/**
 * The signal that a {@code human_input} call has no answer yet: like {@link ApprovalRequired}, it is not
 * a failure; the VM ends the run {@code waiting} before the step commits, and answering the run later
 * runs the step again, which then finds the answer.
 */
public final class InputRequired extends ApprovalRequired {
    private static final long serialVersionUID = 1L;

    private final transient InputRequest request;

    public InputRequired(Call.ToolCall call, InputRequest request) {
        super(call, "waiting for input: " + request.prompt());
        this.request = request;
    }

    /** What the person is asked. */
    public InputRequest request() {
        return request;
    }
}
