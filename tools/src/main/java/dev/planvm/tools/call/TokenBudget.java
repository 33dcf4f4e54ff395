package dev.planvm.tools.call;

import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;

/**
 * The tokens the calls of a run (or of an agent's session: planning, repairs, runs, re-plans) may
 * spend, and what they spent so far. The call chain's budget link counts every token a call reports
 * ({@link dev.planvm.tools.CallEvents#tokens}), refuses a call once the budget is spent, and fails the
 * call after which the total passes it; both failures are a {@link Spent}, never retried. Thread-safe.
 */
public final class TokenBudget {

    /** What a budget of no limit holds. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private final long max;
    private long prompt;
    private long completion;

    /** @param max the most tokens (prompt and completion together) the calls may spend; {@link #UNLIMITED} for no limit */
    public TokenBudget(long max) {
        if (max < 1) {
            throw new IllegalArgumentException("a token budget must be at least 1, not " + max);
        }
        this.max = max;
    }

    /** A budget that only counts. */
    public static TokenBudget unlimited() {
        return new TokenBudget(UNLIMITED);
    }

    public long max() {
        return max;
    }

    public boolean limited() {
        return max != UNLIMITED;
    }

    /** What the calls spent so far. */
    public synchronized TokenCount spent() {
        return new TokenCount(prompt, completion);
    }

    /** Counts tokens a call reported. */
    public synchronized void add(TokenCount tokens) {
        prompt = saturated(prompt + tokens.prompt());
        completion = saturated(completion + tokens.completion());
    }

    /** Whether the calls spent the whole budget (no further call may start). */
    public synchronized boolean spentAll() {
        return limited() && prompt + completion >= max;
    }

    /** Whether the calls spent more than the budget. */
    public synchronized boolean overspent() {
        return limited() && prompt + completion > max;
    }

    /** The failure of a call refused or failed because the budget is spent. */
    public Spent spentFailure() {
        return new Spent("the token budget of " + TokenCount.count(max) + " tokens (--max-tokens) is spent: "
                + spent().describe() + " used");
    }

    private static long saturated(long value) {
        return value < 0 ? Long.MAX_VALUE : value;
    }

    /** A call refused, or failed after it answered, because the token budget is spent. Not retriable. */
    public static final class Spent extends ToolException {
        private static final long serialVersionUID = 1L;

        Spent(String message) {
            super(message, false);
        }
    }
}
