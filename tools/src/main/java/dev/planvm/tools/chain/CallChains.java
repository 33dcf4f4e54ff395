package dev.planvm.tools.chain;

import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.CallListener;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.call.Sleeper;
import dev.planvm.tools.call.TokenBudget;
import dev.planvm.tools.cassette.CassettePlayer;
import dev.planvm.tools.chain.internal.ApprovalLink;
import dev.planvm.tools.chain.internal.DryRunLink;
import dev.planvm.tools.chain.internal.NameLink;
import dev.planvm.tools.chain.internal.ParamsCheck;
import dev.planvm.tools.chain.internal.PermissionLink;
import dev.planvm.tools.chain.internal.RetryLink;
import dev.planvm.tools.chain.internal.TerminalLink;
import dev.planvm.tools.chain.internal.TimeoutLink;
import dev.planvm.tools.chain.internal.TokenBudgetLink;
import dev.planvm.tools.chain.internal.ToolLimitLink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Assembles the standard call chain: the one place its order is written down.
 *
 * <pre>{@code
 * CallChains.Parts parts = CallChains.parts(ToolRegistry.of(tools)).retries(RetrySettings.DEFAULT).build();
 * CallChain chain = CallChains.standard(parts, null);                 // a live run
 * CallChain dry = CallChains.standard(parts, CallChains.dryRun(false)); // a dry run
 * }</pre>
 */
public final class CallChains {

    /** Every dry-run placeholder text starts with this, so placeholders are easy to spot downstream. */
    public static final String DRY_RUN_PLACEHOLDER_PREFIX = DryRunLink.PLACEHOLDER_PREFIX;

    private CallChains() {}

    /** Starts the parts of a chain over these tools: no condition evaluator, every tool allowed, default retries. */
    public static PartsBuilder parts(ToolRegistry tools) {
        return new PartsBuilder(tools);
    }

    /**
     * name (the call's canonical tool name, which every later link matches: {@link ToolNames}) →
     * permission → run mode (dry run, replay or record; none for a live run) → retry → per-tool
     * limit → attempt timeout (passing straight on when the call has none) → the tool or condition
     * evaluator (params checked against the tool's schema first). Dry run and replay answer every call themselves, so nothing after them runs;
     * a denied tool is denied in every mode.
     *
     * @param mode a {@link #dryRun} link, a cassette player or recorder, or {@code null} for a live run
     */
    public static CallChain standard(Parts parts, CallInterceptor mode) {
        return standard(parts, mode, RunLinks.NONE);
    }

    /**
     * {@link #standard(Parts, CallInterceptor)} with one run's own links and listeners: its token
     * budget first (it counts the tokens every call reports, refuses calls once the budget is spent and
     * fails the call that passes it), then the permission link, then the run's guards in order (a
     * narrower {@link #permission} policy, then its {@link #approval} link); the parts' routing links
     * come after the mode link; the run's listeners observe after the parts' listeners.
     */
    public static CallChain standard(Parts parts, CallInterceptor mode, RunLinks run) {
        TokenBudget budget = run.budget();
        List<CallInterceptor> guards = run.guards();
        List<CallListener> runListeners = run.listeners();
        List<CallInterceptor> links = new ArrayList<>();
        links.add(new NameLink(parts.tools, callsForReal(mode)));
        if (budget != null) {
            links.add(new TokenBudgetLink(budget));
        }
        links.add(parts.permission);
        links.addAll(guards);
        if (mode != null) {
            links.add(mode);
        }
        links.addAll(run.afterMode());
        links.addAll(parts.routing);
        links.add(parts.retry);
        links.add(run.owner() == null ? parts.limits : parts.limits.forOwner(run.owner()));
        links.add(parts.timeouts);
        links.add(parts.terminal);
        List<CallListener> listeners = parts.listeners;
        if (!runListeners.isEmpty()) {
            listeners = new ArrayList<>(parts.listeners);
            listeners.addAll(runListeners);
        }
        return new CallChain(links, listeners);
    }

    /**
     * What one run adds to the VM's chain: a token budget (or {@code null}), guards after the
     * permission link, links right after the mode link (they answer calls a recording keeps and a replay
     * or dry run never lets through: {@link #person}), listeners after the VM's, and the owner its calls
     * wait for tool slots as (its run tree: slots are shared fairly between owners), or {@code null}.
     */
    public record RunLinks(
            TokenBudget budget,
            List<CallInterceptor> guards,
            List<CallInterceptor> afterMode,
            List<CallListener> listeners,
            Object owner) {
        /** Nothing added. */
        public static final RunLinks NONE = new RunLinks(null, List.of(), List.of());

        public RunLinks {
            guards = List.copyOf(guards);
            afterMode = List.copyOf(afterMode);
            listeners = List.copyOf(listeners);
        }

        /** No owner of its own. */
        public RunLinks(
                TokenBudget budget,
                List<CallInterceptor> guards,
                List<CallInterceptor> afterMode,
                List<CallListener> listeners) {
            this(budget, guards, afterMode, listeners, null);
        }

        /** No link after the mode link. */
        public RunLinks(TokenBudget budget, List<CallInterceptor> guards, List<CallListener> listeners) {
            this(budget, guards, List.of(), listeners);
        }
    }

    /**
     * The link that answers one run's calls of the built-in {@code human_input} and {@code sleep} tools
     * ({@link dev.planvm.tools.approval.PersonTools}) through {@code person}: the answer it knows (none yet:
     * the run waits, when {@link Approvals#waitsForInput}, else the call fails), the wake time it keeps; a
     * sleep reads {@code clock} and waits with {@code sleeper}. Goes after the mode link ({@link RunLinks#afterMode}).
     *
     * @param handled the built-in names this run's tools mean (not a user's tool of the same name)
     */
    public static CallInterceptor person(
            java.util.Set<String> handled, Approvals person, java.time.Clock clock, Sleeper sleeper) {
        return new dev.planvm.tools.chain.internal.PersonLink(handled, person, clock, sleeper);
    }

    /**
     * Which calls reach their tool in a chain with this mode link, so their tool may be set up to learn
     * its canonical name: all of a live or recorded run, a partial replay's live tools, none of a dry run.
     */
    private static Predicate<String> callsForReal(CallInterceptor mode) {
        if (mode instanceof DryRunLink) {
            return tool -> false;
        }
        if (mode instanceof CassettePlayer player) {
            return player::passesOn;
        }
        return tool -> true;
    }

    /**
     * A permission link of its own (e.g. one run's narrower policy): a denied tool fails the call, not
     * retried. A bare name written in a rule is taken as written; prefer {@link #permission(ToolPolicy, ToolNames)}.
     */
    public static CallInterceptor permission(ToolPolicy policy) {
        return new PermissionLink(policy, ToolNames.AS_WRITTEN);
    }

    /** {@link #permission(ToolPolicy)}, a bare name written in a rule read through {@code names} ({@link ToolNames#matches}). */
    public static CallInterceptor permission(ToolPolicy policy, ToolNames names) {
        return new PermissionLink(policy, names);
    }

    /**
     * The approval link: a call of a tool {@code rules} name (by its canonical name) proceeds once
     * {@code approvals} approved it, fails when denied, and ends the run waiting when nobody has
     * decided yet. A bare name written in a rule is taken as written; prefer
     * {@link #approval(ApprovalRules, Approvals, ToolNames)}.
     */
    public static CallInterceptor approval(ApprovalRules rules, Approvals approvals) {
        return new ApprovalLink(rules, approvals, ToolNames.AS_WRITTEN);
    }

    /** {@link #approval(ApprovalRules, Approvals)}, a bare name written in a rule read through {@code names}. */
    public static CallInterceptor approval(ApprovalRules rules, Approvals approvals, ToolNames names) {
        return new ApprovalLink(rules, approvals, names);
    }

    /**
     * Dry run: answers every call with a placeholder and calls nothing. A tool call expecting two or
     * more output names gets an object with a placeholder per name (text starting with
     * {@value #DRY_RUN_PLACEHOLDER_PREFIX}); conditions answer {@code conditionsAnswer}.
     */
    public static CallInterceptor dryRun(boolean conditionsAnswer) {
        return new DryRunLink(conditionsAnswer);
    }

    /**
     * The parts of a chain that a VM keeps for all its runs: its links are shared, so per-tool
     * concurrency limits hold across runs. Immutable; build with {@link #parts(ToolRegistry)}.
     */
    public static final class Parts {
        private final ToolRegistry tools;
        private final ToolPolicy policy;
        private final PermissionLink permission;
        private final RetryLink retry;
        private final ToolLimitLink limits;
        private final TimeoutLink timeouts;
        private final TerminalLink terminal;
        private final List<CallListener> listeners;
        private final List<CallInterceptor> routing;

        private Parts(PartsBuilder b) {
            this.tools = b.tools;
            this.policy = b.policy;
            this.permission = new PermissionLink(b.policy, b.tools.canonicalNames());
            this.retry = new RetryLink(b.retries, b.sleeper, b.tools);
            this.limits =
                    new ToolLimitLink(b.toolLimits, b.tools.canonicalNames(), b.adaptive, b.llmTools, System::nanoTime);
            this.timeouts = new TimeoutLink(b.retries, b.tools);
            this.terminal = new TerminalLink(b.tools, b.conditions, new ParamsCheck());
            this.listeners = List.copyOf(b.listeners);
            this.routing = List.copyOf(b.routing);
        }

        /** Which tools may be called. */
        public ToolPolicy policy() {
            return policy;
        }

        /**
         * The concurrency limit of each tool called so far (the LLM's under its first LLM tool's name):
         * {@code [limit, in flight, waiting, calls refused for load, calls that waited]}, for metrics.
         */
        public java.util.Map<String, long[]> toolLimits() {
            return limits.states();
        }
    }

    /** Configures {@link Parts}. */
    public static final class PartsBuilder {
        private final ToolRegistry tools;
        private ConditionEvaluator conditions;
        private ToolPolicy policy = ToolPolicy.ALLOW_ALL;
        private RetrySettings retries = RetrySettings.DEFAULT;
        private Map<String, Integer> toolLimits = Map.of();
        private ToolLimitLink.Adaptive adaptive = ToolLimitLink.Adaptive.DEFAULT;
        private java.util.Set<String> llmTools = java.util.Set.of();
        private Sleeper sleeper = Sleeper.REAL;
        private final List<CallListener> listeners = new ArrayList<>();
        private final List<CallInterceptor> routing = new ArrayList<>();

        private PartsBuilder(ToolRegistry tools) {
            this.tools = Objects.requireNonNull(tools, "tools");
        }

        /** Decides {@code condition_prompt}s; without one a condition call fails (unless replayed or dry-run). */
        public PartsBuilder conditions(ConditionEvaluator evaluator) {
            this.conditions = evaluator;
            return this;
        }

        public PartsBuilder policy(ToolPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        public PartsBuilder retries(RetrySettings retries) {
            this.retries = Objects.requireNonNull(retries, "retries");
            return this;
        }

        /** Tool name to the most calls of it that may run at once, across every run sharing these parts. */
        public PartsBuilder toolLimits(Map<String, Integer> limits) {
            this.toolLimits = Map.copyOf(new LinkedHashMap<>(limits));
            return this;
        }

        /**
         * Each tool's concurrency limit adapts to how its calls go (the default): it starts at {@code initial}
         * calls in flight and never passes {@code max}, nor a limit given to {@link #toolLimits}; the LLM's
         * ({@link #llmTools}) starts at {@code llmInitial} and never passes {@code llmMax}.
         */
        public PartsBuilder adaptiveLimits(int initial, int max, int llmInitial, int llmMax) {
            this.adaptive = new ToolLimitLink.Adaptive(true, initial, max, llmInitial, llmMax);
            return this;
        }

        /** Adaptive limits off: only the limits given to {@link #toolLimits} apply, fixed (as before issue 40). */
        public PartsBuilder fixedLimits() {
            this.adaptive = ToolLimitLink.Adaptive.OFF;
            return this;
        }

        /**
         * The tools that ask the LLM (canonical names): their calls and the {@code condition_prompt}s share one
         * limiter, the provider's.
         */
        public PartsBuilder llmTools(java.util.Set<String> tools) {
            this.llmTools = java.util.Set.copyOf(tools);
            return this;
        }

        public PartsBuilder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        public PartsBuilder listener(CallListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        public PartsBuilder listeners(List<CallListener> more) {
            more.forEach(this::listener);
            return this;
        }

        /**
         * Links between the run mode's link and the retry link: they see every call a replay or dry run
         * did not answer, and may answer it themselves (send it elsewhere, e.g. to a Temporal activity)
         * or pass it on.
         */
        public PartsBuilder routing(List<CallInterceptor> links) {
            links.forEach(link -> routing.add(Objects.requireNonNull(link, "link")));
            return this;
        }

        public Parts build() {
            return new Parts(this);
        }
    }
}
