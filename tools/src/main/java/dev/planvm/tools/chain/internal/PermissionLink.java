package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.Objects;
import java.util.Optional;

/**
 * Decides whether a call may happen at all. A tool call whose tool (its canonical name) the {@link ToolPolicy}
 * denies fails at once with a non-retriable {@link ToolException} naming the rule, e.g.
 * {@code tool 'web_search' is denied by the tool policy (deny rule 'web_*')}; nothing after this
 * link runs (no replay, no dry-run placeholder, no tool). Conditions always pass, and so do calls
 * that no instruction makes ({@link dev.planvm.tools.CallContext#NO_INSTRUCTION}: the agent's
 * planner): the policy governs what plans may call.
 */
public final class PermissionLink implements CallInterceptor {

    private final ToolPolicy policy;
    private final ToolNames names;

    /** Allows every call. */
    public PermissionLink() {
        this(ToolPolicy.ALLOW_ALL, ToolNames.AS_WRITTEN);
    }

    /** @param names how a bare name written in a rule is read ({@link ToolNames#matches}) */
    public PermissionLink(ToolPolicy policy, ToolNames names) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.names = Objects.requireNonNull(names, "names");
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        if (call instanceof Call.ToolCall tool
                && !policy.allowsEverything()
                && call.context().seqNo() != dev.planvm.tools.CallContext.NO_INSTRUCTION) {
            Optional<String> refusal = policy.refusal(tool.canonical(), names);
            if (refusal.isPresent()) {
                throw ToolException.denied(refusal.get());
            }
        }
        return chain.proceed(call);
    }
}
