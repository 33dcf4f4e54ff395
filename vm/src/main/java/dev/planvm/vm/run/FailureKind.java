package dev.planvm.vm.run;

import dev.planvm.instructions.InvalidPlanException;
import dev.planvm.instructions.expr.EvaluationException;
import dev.planvm.tools.approval.ApprovalRequired;
import dev.planvm.tools.approval.InputRequired;
import dev.planvm.tools.approval.SleepRequired;
import dev.planvm.tools.call.TokenBudget;

/**
 * What kind of failure something is: the one thing front ends decide by. The command line's exit codes
 * ({@code cli ExitCodes.of}), the HTTP statuses of {@code planvm serve} ({@code ServiceException.Kind.of}) and
 * (later) which failures a plan's {@code on_error} may handle are each an exhaustive {@code switch} over this
 * enum, never a look at a message: rewording a message changes nothing else.
 *
 * <p>Java's {@code sealed} cannot span the modules that throw these failures (the plan loader, the tools and
 * the VM live in different packages of the unnamed module), so the closed set is this enum: a failure carries
 * its kind ({@link RunError#kind()}, a {@link TypedFailure}: the store's, durable-run requests', rejected plans',
 * Temporal's) or is classified once, by type, in {@link #of(Throwable)}.
 */
public enum FailureKind {
    /** The plan does not validate (or cannot be read); nothing ran. */
    INVALID_PLAN,
    /** The plan is valid but cannot run here (a tool not installed or denied, no LLM, no cassette); nothing ran. */
    REJECTED_BEFORE_RUNNING,
    /** A request names a run (or a stored plan, a workflow) that does not exist. */
    NO_SUCH_RUN,
    /** A request conflicts with the run's state: already succeeded, owned by another live process, not waiting. */
    CONFLICT,
    /** A step failed: a tool, an expression, a condition. */
    STEP_FAILED,
    /** A bound that protects the machine was reached: steps, run memory, built text, the token budget. */
    LIMIT_REACHED,
    /** The run store cannot be read or written. */
    STORE_FAILED,
    /** The run store cannot be written because the disk (or a file-size limit) is full; it recovers with space. */
    STORE_FULL,
    /** A service the run needs cannot be reached (a Temporal server). */
    UNAVAILABLE,
    /** The run stopped before a call that needs a reviewer's approval. */
    WAITING_FOR_APPROVAL,
    /** The run stopped at a {@code human_input} call until a person answers it (in this run or a child run). */
    WAITING_FOR_INPUT,
    /**
     * The run stopped at a {@code sleep} call until its wake time (in this run or a child run), holding no thread: a
     * timer of the server that runs it, or a resume, continues it.
     */
    WAITING_FOR_TIMER,
    /** The run stopped at a commit point (a signal, a server shutting down); a resume continues it. */
    INTERRUPTED,
    /** The run was cancelled on request; it failed. */
    CANCELLED;

    private static final int MAX_CAUSES = 20;

    /**
     * The kind of {@code failure}, by its type (or the first of its causes that says): what carries a kind
     * gives it; a plan loader refusal is {@link #INVALID_PLAN}; the token budget, an expression's build limit
     * and {@link LimitReached} are {@link #LIMIT_REACHED}; anything else is {@link #STEP_FAILED}.
     */
    public static FailureKind of(Throwable failure) {
        Throwable e = failure;
        for (int depth = 0; e != null && depth < MAX_CAUSES; depth++, e = e.getCause()) {
            FailureKind kind = direct(e);
            if (kind != null) {
                return kind;
            }
        }
        return STEP_FAILED;
    }

    /**
     * The kind of a step that failed with {@code failure}: {@link #LIMIT_REACHED}, {@link #STORE_FULL} or
     * {@link #STORE_FAILED} when {@link #of} says so, else {@link #STEP_FAILED} (a tool that fails because a plan
     * it loads is invalid is a failed step, not a plan refused before running).
     */
    public static FailureKind ofStep(Throwable failure) {
        FailureKind kind = of(failure);
        return switch (kind) {
            case LIMIT_REACHED, STORE_FULL, STORE_FAILED -> kind;
            default -> STEP_FAILED;
        };
    }

    private static FailureKind direct(Throwable e) {
        if (e instanceof TypedFailure typed) {
            return typed.kind();
        }
        if (e instanceof InvalidPlanException) {
            return INVALID_PLAN;
        }
        if (e instanceof InputRequired) {
            return WAITING_FOR_INPUT;
        }
        if (e instanceof SleepRequired) {
            return WAITING_FOR_TIMER;
        }
        if (e instanceof ApprovalRequired) {
            return WAITING_FOR_APPROVAL;
        }
        if (e instanceof LimitReached
                || e instanceof TokenBudget.Spent
                || (e instanceof EvaluationException evaluation && evaluation.limitReached())) {
            return LIMIT_REACHED;
        }
        return null;
    }

    /** The lower-case name with underscores, as JSON documents show it: {@code step_failed}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The kind whose {@link #label()} is {@code label}, or {@code null} for null or a label this version lacks. */
    public static FailureKind ofLabel(String label) {
        if (label == null) {
            return null;
        }
        for (FailureKind kind : values()) {
            if (kind.label().equals(label)) {
                return kind;
            }
        }
        return null;
    }
}
