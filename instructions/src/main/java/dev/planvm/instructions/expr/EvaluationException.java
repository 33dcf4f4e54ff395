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
    private final boolean limitReached;

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
        this(message, variable, path, false);
    }

    private EvaluationException(String message, String variable, String path, boolean limitReached) {
        super(message);
        this.variable = variable;
        this.path = path;
        this.limitReached = limitReached;
    }

    /** An expression would build more than one expression may (a bound that protects the machine). */
    public static EvaluationException limit(String message) {
        return new EvaluationException(message, null, null, true);
    }

    /** Whether a build limit stopped the expression (not the plan's own mistake). */
    public boolean limitReached() {
        return limitReached;
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
