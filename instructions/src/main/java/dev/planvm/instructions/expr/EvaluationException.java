package dev.planvm.instructions.expr;

/**
 * An expression failed at run time. The message is a plain sentence naming the variable and path,
 * e.g. {@code ${user.address.city}: 'user.address' has no key 'city' (it has: street, zip)} or
 * {@code ${count}: variable 'count' is not set}. The VM adds the {@code seq_no}.
 */
public final class EvaluationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String variable;
    private final String path;

    /** An error that involves no particular variable. */
    public EvaluationException(String message) {
        this(message, null, null);
    }

    /**
     * An error about a variable.
     *
     * @param variable the root variable involved, or null
     * @param path the path text involved, such as {@code user.address.city}, or null
     */
    public EvaluationException(String message, String variable, String path) {
        super(message);
        this.variable = variable;
        this.path = path;
    }

    /** The root variable involved, or null. */
    public String variable() {
        return variable;
    }

    /** The path text involved, e.g. {@code user.address.city}, or null. */
    public String path() {
        return path;
    }
}
