package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Bounds how many calls of each tool run at once across every run of a VM, with one {@link ToolLimiter} per
 * tool (by its canonical name): a call waits for a slot of its tool before it reaches the tool and gives it back
 * after, telling the limiter how the call went. By default each limit adapts ({@link AdaptiveLimit}): it starts
 * wide, so a map starts at full width, and settles where the tool answers in steady time, shrinking on
 * overloads (429, 503, {@code Retry-After}), timeouts and growing latency. A limit configured for a tool
 * ({@code --tool-concurrency TOOL=N}) is a hard ceiling: the adaptive limit never passes it (without adaptive
 * limits it is the tool's fixed limit, as before). The LLM has a limiter of its own, shared by the LLM tools
 * and the {@code condition_prompt}s that ask the same provider, with a narrower start (providers rate-limit).
 *
 * <p>Slots are handed out fairly between owners ({@link ToolLimiter}): each run's chain passes its run tree as
 * the owner ({@link #forOwner}). A call reports the slot it took and any change of its tool's limit to its
 * events ({@link CallEvents#slotTaken}, {@link CallEvents#limitChanged}), which reach the step, the trace and
 * the run's listeners. Shared by all runs of one VM.
 */
public final class ToolLimitLink implements CallInterceptor {

    /** The settings of the adaptive limits: off, or where they start and how far they grow. */
    public record Adaptive(boolean on, int initial, int max, int llmInitial, int llmMax) {
        /**
         * On; a tool starts at 256 calls in flight and grows to 1,024 at most, the LLM starts at 16 and grows
         * to 256 (see docs/performance.md for the measurements behind them).
         */
        public static final Adaptive DEFAULT = new Adaptive(true, 256, 1024, 16, 256);

        /** Off: only the limits configured for tools, fixed. */
        public static final Adaptive OFF = new Adaptive(false, 1, 1, 1, 1);

        public Adaptive {
            if (on && (initial < 1 || max < 1 || llmInitial < 1 || llmMax < 1)) {
                throw new IllegalArgumentException("adaptive limits must start and grow to at least 1");
            }
        }
    }

    private final Map<String, Integer> caps;
    private final ToolNames names;
    private final Adaptive adaptive;
    /** The LLM tools (canonical names): their calls, and conditions, share one limiter named by the first. */
    private final Set<String> llmTools;

    private final String llmKey;
    private final LongSupplier clock;
    private final Map<String, ToolLimiter> limiters = new ConcurrentHashMap<>();
    /** The owner of calls made through a chain that names none (calls beside runs). */
    private final Object nobody = new Object();

    /**
     * @param caps     tool name to the most calls of it that may run at once: a hard ceiling
     * @param names    how a bare name used as a key is read ({@link ToolNames#lookup})
     * @param adaptive whether limits adapt, and their start and maximum
     * @param llmTools the canonical names of the tools that ask the LLM (their limiter is the LLM's)
     */
    public ToolLimitLink(
            Map<String, Integer> caps, ToolNames names, Adaptive adaptive, Set<String> llmTools, LongSupplier clock) {
        this.caps = Map.copyOf(caps);
        this.names = names;
        this.adaptive = Objects.requireNonNull(adaptive, "adaptive");
        this.llmTools = Set.copyOf(llmTools);
        this.llmKey = llmTools.isEmpty()
                ? null
                : llmTools.stream().sorted().findFirst().orElseThrow();
        this.clock = clock;
    }

    /** This link for the calls of one owner (a run tree), whose waits are served fairly against the others'. */
    public CallInterceptor forOwner(Object owner) {
        Objects.requireNonNull(owner, "owner");
        return chain -> intercept(chain, owner);
    }

    @Override
    public JsonNode intercept(Chain chain) {
        return intercept(chain, nobody);
    }

    private JsonNode intercept(Chain chain, Object owner) {
        Call call = chain.call();
        ToolLimiter limiter = limiterFor(call);
        if (limiter == null) {
            return chain.proceed(call);
        }
        ToolLimiter.Permit permit;
        try {
            permit = limiter.acquire(owner);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while waiting for a free slot of " + call.describe(), false, e);
        }
        CallEvents events = call.context().events();
        events.slotTaken(limiter.name(), permit.limitAtStart(), permit.waitedNanos());
        AdaptiveLimit.Signal signal = AdaptiveLimit.Signal.OTHER;
        try {
            JsonNode output = chain.proceed(call);
            signal = AdaptiveLimit.Signal.ANSWERED;
            return output;
        } catch (ToolException e) {
            signal = e.overloaded()
                    ? AdaptiveLimit.Signal.OVERLOADED
                    : e.kind() == ToolException.Kind.TIMEOUT
                            ? AdaptiveLimit.Signal.TIMED_OUT
                            : AdaptiveLimit.Signal.OTHER;
            throw e;
        } finally {
            int changed = permit.release(signal);
            if (changed >= 0) {
                events.limitChanged(limiter.name(), changed, limiter.cause());
            }
        }
    }

    /** The limiter of the call's tool (the LLM's for a condition), or {@code null} when nothing limits it. */
    private ToolLimiter limiterFor(Call call) {
        String key;
        boolean llm;
        if (call instanceof Call.ToolCall tool) {
            llm = llmTools.contains(tool.canonical());
            key = llm ? llmKey : tool.canonical();
        } else if (llmKey != null) {
            llm = true;
            key = llmKey;
        } else {
            return null;
        }
        ToolLimiter known = limiters.get(key);
        if (known != null) {
            return known;
        }
        Integer cap = caps.isEmpty() ? null : names.lookup(caps, key);
        if (!adaptive.on()) {
            return cap == null ? null : limiters.computeIfAbsent(key, k -> ToolLimiter.fixed(k, cap, clock));
        }
        int max = cap != null ? cap : llm ? adaptive.llmMax() : adaptive.max();
        int initial = Math.min(max, llm ? adaptive.llmInitial() : adaptive.initial());
        return limiters.computeIfAbsent(key, k -> ToolLimiter.adaptive(k, new AdaptiveLimit(initial, max), clock));
    }

    /**
     * Each limiter's state by tool: {@code [limit, in flight, waiting, calls refused for load, calls that
     * waited]}, for metrics.
     */
    public Map<String, long[]> states() {
        Map<String, long[]> states = new java.util.TreeMap<>();
        limiters.forEach((name, limiter) -> states.put(name, limiter.state()));
        return states;
    }
}
