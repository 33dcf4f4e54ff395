package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * Bounds how many calls of a tool run at once across every run of a VM (LLM APIs rate-limit):
 * a call waits for a permit of its tool (by its canonical name) before it reaches the tool and gives it back after. Tools
 * without a configured limit pass straight through. Shared by all runs of one VM.
 */
public final class ToolLimitLink implements CallInterceptor {

    private final Map<String, Semaphore> permits;
    private final ToolNames names;

    /**
     * @param limits tool name to the most calls of it that may run at once
     * @param names  how a bare name used as a key is read ({@link ToolNames#lookup})
     */
    public ToolLimitLink(Map<String, Integer> limits, ToolNames names) {
        this.permits = Map.copyOf(limits.entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new Semaphore(e.getValue(), true))));
        this.names = names;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        Semaphore semaphore = call instanceof Call.ToolCall tool && !permits.isEmpty()
                ? names.lookup(permits, tool.canonical())
                : null;
        if (semaphore == null) {
            return chain.proceed(call);
        }
        try {
            semaphore.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while waiting for a free slot of " + call.describe(), false, e);
        }
        try {
            return chain.proceed(call);
        } finally {
            semaphore.release();
        }
    }
}
