package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * Bounds how many calls of a tool run at once across every run of a VM (LLM APIs rate-limit):
 * a call waits for a permit of its tool before it reaches the tool and gives it back after. Tools
 * without a configured limit pass straight through. Shared by all runs of one VM.
 */
public final class ToolLimitLink implements CallInterceptor {

    private final Map<String, Semaphore> permits;

    /** @param limits tool name to the most calls of it that may run at once */
    public ToolLimitLink(Map<String, Integer> limits) {
        this.permits = Map.copyOf(limits.entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> new Semaphore(e.getValue(), true))));
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        Semaphore semaphore = call instanceof Call.ToolCall tool ? permits.get(tool.tool()) : null;
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
