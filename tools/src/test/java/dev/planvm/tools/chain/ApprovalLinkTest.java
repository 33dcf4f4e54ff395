package dev.planvm.tools.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRequired;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The approval link: a call a rule names waits, proceeds once approved, fails when denied; others pass. */
class ApprovalLinkTest {

    private final AtomicInteger sent = new AtomicInteger();
    private final List<String> asked = new ArrayList<>();

    private final Tool send = Tool.of("send_mail", "", (p, c) -> {
        sent.incrementAndGet();
        return TextNode.valueOf("sent");
    });
    private final Tool read = Tool.of("read_mail", "", (p, c) -> TextNode.valueOf("read"));

    private CallChain chain(Approvals approvals) {
        Approvals recording = call -> {
            asked.add(call.tool());
            return approvals.decide(call);
        };
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(List.of(send, read))).build(),
                null,
                new CallChains.RunLinks(
                        null, List.of(CallChains.approval(ApprovalRules.of(List.of("send_*")), recording)), List.of()));
    }

    private static Call call(String tool) {
        return new Call.ToolCall(tool, JsonNodeFactory.instance.objectNode(), CallContext.of(1));
    }

    @Test
    void an_undecided_call_waits_before_its_tool_is_called() {
        assertThatThrownBy(() -> chain(Approvals.NONE).execute(call("send_mail")))
                .isInstanceOf(ApprovalRequired.class);
        assertThat(sent).hasValue(0);
    }

    @Test
    void an_approved_call_proceeds_and_a_denied_one_fails_permanently_with_the_reason() {
        assertThat(chain(call -> Optional.of(Approvals.Decision.approve()))
                        .execute(call("send_mail"))
                        .asText())
                .isEqualTo("sent");
        assertThatThrownBy(() -> chain(call -> Optional.of(Approvals.Decision.deny("wrong address")))
                        .execute(call("send_mail")))
                .isInstanceOf(ToolException.class)
                .hasMessageContaining("denied by a reviewer: wrong address")
                .satisfies(e -> assertThat(((ToolException) e).retriable()).isFalse());
        assertThatThrownBy(() ->
                        chain(call -> Optional.of(Approvals.Decision.deny(""))).execute(call("send_mail")))
                .hasMessageEndingWith("denied by a reviewer");
        assertThat(sent).hasValue(1);
    }

    @Test
    void a_call_no_rule_names_is_never_asked_about() {
        assertThat(chain(Approvals.NONE).execute(call("read_mail")).asText()).isEqualTo("read");
        assertThat(asked).isEmpty();
    }
}
