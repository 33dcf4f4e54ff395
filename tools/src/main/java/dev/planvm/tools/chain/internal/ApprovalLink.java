package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.approval.ApprovalRequired;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.Objects;
import java.util.Optional;

/**
 * Right after the permission link: a tool call whose tool (its canonical name) the {@link ApprovalRules} name is made only once a
 * reviewer approved it. Approved: the call proceeds. Denied: a non-retriable {@link ToolException}
 * {@code denied by a reviewer: REASON}, which fails the step. No decision yet: {@link ApprovalRequired},
 * which ends the run waiting before the call is made. Conditions and other tools pass.
 */
public final class ApprovalLink implements CallInterceptor {

    private final ApprovalRules rules;
    private final Approvals approvals;
    private final ToolNames names;

    /** @param names how a bare name written in a rule is read ({@link ToolNames#matches}) */
    public ApprovalLink(ApprovalRules rules, Approvals approvals, ToolNames names) {
        this.rules = Objects.requireNonNull(rules, "rules");
        this.approvals = Objects.requireNonNull(approvals, "approvals");
        this.names = Objects.requireNonNull(names, "names");
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        if (call instanceof Call.ToolCall tool && rules.matches(tool.canonical(), names)) {
            Optional<Approvals.Decision> decision = approvals.decide(tool);
            if (decision.isEmpty()) {
                throw new ApprovalRequired(tool);
            }
            if (!decision.get().approved()) {
                String reason = decision.get().reason();
                throw ToolException.denied("denied by a reviewer" + (reason.isBlank() ? "" : ": " + reason));
            }
        }
        return chain.proceed(call);
    }
}
