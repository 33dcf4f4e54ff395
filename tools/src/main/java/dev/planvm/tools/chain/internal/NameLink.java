package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The first link of every chain: resolves a tool call's name once to its tool's canonical name
 * ({@link Call.ToolCall#named}), so every later link — permission, approval, limits, retries,
 * timeouts — matches that one name, whatever spelling the plan used. A call answered without its tool
 * (a replay, a dry run) sets nothing up to learn the name: it takes what is known already.
 */
public final class NameLink implements CallInterceptor {

    private final ToolRegistry tools;
    private final Predicate<String> callsForReal;

    /** @param callsForReal whether calls of a tool (as spelled) reach the tool, so it may be set up to learn its name */
    public NameLink(ToolRegistry tools, Predicate<String> callsForReal) {
        this.tools = Objects.requireNonNull(tools, "tools");
        this.callsForReal = Objects.requireNonNull(callsForReal, "callsForReal");
    }

    @Override
    public JsonNode intercept(Chain chain) {
        if (chain.call() instanceof Call.ToolCall call) {
            String canonical = callsForReal.test(call.tool())
                    ? tools.canonicalName(call.tool())
                    : tools.knownCanonicalName(call.tool());
            return chain.proceed(call.named(canonical));
        }
        return chain.proceed(chain.call());
    }
}
