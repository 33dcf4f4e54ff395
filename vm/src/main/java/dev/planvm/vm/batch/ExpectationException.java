package dev.planvm.vm.batch;

/** An expectation file that cannot be used: unreadable, malformed JSON, an unknown key, a wrong value. */
public final class ExpectationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ExpectationException(String message) {
        super(message);
    }

    public ExpectationException(String message, Throwable cause) {
        super(message, cause);
    }
}
