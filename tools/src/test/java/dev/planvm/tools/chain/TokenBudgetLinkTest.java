package dev.planvm.tools.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.TokenBudget;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A run's token budget in the chain: it counts what calls report, passes events on, refuses once spent. */
class TokenBudgetLinkTest {

    private final AtomicInteger calls = new AtomicInteger();
    private final List<String> seen = new ArrayList<>();

    private final Tool llm = Tool.of("llm", "", (p, c) -> {
        calls.incrementAndGet();
        c.events().streamStarted();
        c.events().chunk("an");
        c.events().tokens(new TokenCount(40, 10));
        return TextNode.valueOf("answer");
    });

    private Call call() {
        CallEvents events = new CallEvents() {
            @Override
            public void tokens(TokenCount tokens) {
                seen.add("tokens " + tokens.total());
            }

            @Override
            public void streamStarted() {
                seen.add("stream");
            }

            @Override
            public void chunk(String text) {
                seen.add("chunk " + text);
            }
        };
        return new Call.ToolCall(
                "llm", JsonNodeFactory.instance.objectNode(), CallContext.of(1).withEvents(events));
    }

    private CallChain chain(TokenBudget budget) {
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(List.of(llm))).build(),
                null,
                new CallChains.RunLinks(budget, List.of(), List.of()));
    }

    @Test
    void it_counts_the_tokens_and_passes_every_event_on() {
        TokenBudget budget = new TokenBudget(1_000);
        assertThat(chain(budget).execute(call()).asText()).isEqualTo("answer");
        assertThat(budget.spent()).isEqualTo(new TokenCount(40, 10));
        assertThat(seen).containsExactly("stream", "chunk an", "tokens 50");
    }

    @Test
    void the_call_that_passes_the_budget_fails_and_the_next_is_refused_before_it_calls() {
        TokenBudget budget = new TokenBudget(60);
        CallChain chain = chain(budget);
        chain.execute(call());
        assertThatThrownBy(() -> chain.execute(call()))
                .isInstanceOf(TokenBudget.Spent.class)
                .hasMessageContaining("the token budget of 60 tokens (--max-tokens) is spent: 100 tokens");
        assertThat(calls).hasValue(2);
        assertThatThrownBy(() -> chain.execute(call())).isInstanceOf(TokenBudget.Spent.class);
        assertThat(calls).as("refused before calling").hasValue(2);
    }
}
