package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.TokenBudget;

/**
 * Counts the tokens every call reports into the run's {@link TokenBudget}, refuses a call once the
 * budget is spent, and fails a call after which the total passes the budget (its answer is not used).
 * A call that starts within the budget runs to its end, retries included: the budget can be passed
 * by what one call spends.
 */
public final class TokenBudgetLink implements CallInterceptor {

    private final TokenBudget budget;

    public TokenBudgetLink(TokenBudget budget) {
        this.budget = budget;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        if (budget.spentAll()) {
            throw budget.spentFailure();
        }
        Call call = chain.call();
        CallEvents downstream = call.context().events();
        JsonNode output = chain.proceed(call.withEvents(new CallEvents() {
            @Override
            public void tokens(TokenCount tokens) {
                budget.add(tokens);
                downstream.tokens(tokens);
            }

            @Override
            public void streamStarted() {
                downstream.streamStarted();
            }

            @Override
            public void chunk(String text) {
                downstream.chunk(text);
            }

            @Override
            public void slotTaken(String limiter, int limit, long waitedNanos) {
                downstream.slotTaken(limiter, limit, waitedNanos);
            }

            @Override
            public void limitChanged(String limiter, int limit, String cause) {
                downstream.limitChanged(limiter, limit, cause);
            }
        }));
        if (budget.overspent()) {
            throw budget.spentFailure();
        }
        return output;
    }
}
