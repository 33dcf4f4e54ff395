package dev.planvm.vm.run;

/** A step that cannot complete; the message is the cause, in a sentence (the VM adds where). */
public class StepFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StepFailure(String message) {
        super(message);
    }

    public StepFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
