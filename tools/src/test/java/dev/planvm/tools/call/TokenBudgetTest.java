package dev.planvm.tools.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.tools.TokenCount;
import org.junit.jupiter.api.Test;

/** A run's token budget: what it counts, when it is spent and overspent, and how it says so. */
class TokenBudgetTest {

    @Test
    void a_budget_is_at_least_one_token() {
        assertThatThrownBy(() -> new TokenBudget(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a token budget must be at least 1, not 0");
        assertThat(new TokenBudget(1).max()).isEqualTo(1);
    }

    @Test
    void it_counts_prompt_and_completion_separately() {
        TokenBudget budget = new TokenBudget(1_000);
        budget.add(new TokenCount(100, 20));
        budget.add(new TokenCount(5, 7));
        assertThat(budget.spent()).isEqualTo(new TokenCount(105, 27));
    }

    @Test
    void exactly_at_the_budget_it_is_spent_but_not_overspent_and_one_more_overspends_it() {
        TokenBudget budget = new TokenBudget(120);
        budget.add(new TokenCount(100, 19));
        assertThat(budget.spentAll()).isFalse();
        assertThat(budget.overspent()).isFalse();
        budget.add(new TokenCount(0, 1));
        assertThat(budget.spentAll()).isTrue();
        assertThat(budget.overspent()).isFalse();
        budget.add(new TokenCount(1, 0));
        assertThat(budget.overspent()).isTrue();
    }

    @Test
    void an_unlimited_budget_only_counts_and_never_overflows() {
        TokenBudget budget = TokenBudget.unlimited();
        assertThat(budget.limited()).isFalse();
        assertThat(new TokenBudget(5).limited()).isTrue();
        budget.add(new TokenCount(Long.MAX_VALUE - 1, 0));
        budget.add(new TokenCount(10, Long.MAX_VALUE));
        budget.add(new TokenCount(0, 10));
        assertThat(budget.spent()).isEqualTo(new TokenCount(Long.MAX_VALUE, Long.MAX_VALUE));
        assertThat(budget.spentAll()).isFalse();
        assertThat(budget.overspent()).isFalse();
    }

    @Test
    void the_failure_names_the_budget_and_what_was_used_and_is_not_retriable() {
        TokenBudget budget = new TokenBudget(1_200);
        budget.add(new TokenCount(1_000, 240));
        TokenBudget.Spent failure = budget.spentFailure();
        assertThat(failure)
                .hasMessage("the token budget of 1,200 tokens (--max-tokens) is spent: 1,240 tokens (prompt 1,000,"
                        + " completion 240) used");
        assertThat(failure.retriable()).isFalse();
    }
}
