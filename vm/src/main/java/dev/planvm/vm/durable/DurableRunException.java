package dev.planvm.vm.durable;

/**
 * A durable-run request that cannot be carried out, in one sentence: no such run, an ambiguous id,
 * a run that already succeeded, a {@code seq_no} the run never reached, a stored plan that no
 * longer loads. Nothing was run and nothing was written to the store.
 */
public final class DurableRunException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DurableRunException(String message) {
        super(message);
    }
}
