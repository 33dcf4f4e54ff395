package dev.planvm.tools.chain;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * First link: decides whether a call may happen at all. For now it allows everything; tool
 * permission policies (allow/deny globs) will live here.
 */
public final class PermissionLink implements CallInterceptor {
    @Override
    public JsonNode intercept(Chain chain) {
        return chain.proceed(chain.call());
    }
}
