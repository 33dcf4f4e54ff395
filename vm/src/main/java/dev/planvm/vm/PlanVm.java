package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Custom;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.CallListener;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.call.Sleeper;
import dev.planvm.tools.cassette.CassettePlayer;
import dev.planvm.tools.cassette.CassetteRecorder;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import dev.planvm.vm.internal.Dataflow;
import dev.planvm.vm.internal.Interpreter;
import dev.planvm.vm.internal.Preflight;
import dev.planvm.vm.internal.RunSetup;
import dev.planvm.vm.internal.Speculator;
import dev.planvm.vm.internal.Threads;
import dev.planvm.vm.internal.handlers.BuiltinHandlers;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.trace.TraceRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ExecutorService;

/**
 * The plan virtual machine. Configure once with {@link #builder()}, then {@link #run} any number
 * of plans, from any number of threads: a run keeps all its state to itself.
 *
 * <pre>{@code
 * PlanVm vm = PlanVm.builder()
 *         .tool(Tool.of("upper", "Upper-cases text", (params, ctx) -> TextNode.valueOf(params.path("text").asText().toUpperCase())))
 *         .build();
 * Plan plan = vm.loader().load(Path.of("plan.json")).planOrThrow();
 * RunResult result = vm.run(plan, Map.of());
 * }</pre>
 *
 * Every tool call and LLM condition of a run goes through one call chain, assembled per run by
 * {@link CallChains#standard}: permission → record/replay (or dry run) → retry → per-tool limit →
 * attempt timeout → the tool.
 *
 * <p>Runs keep the sequential semantics of the plan language, but by default a call whose inputs
 * are final starts before its turn, so independent calls of a basic block overlap; variables,
 * trace order, errors and {@code final_answer} are exactly those of a sequential run.
 * {@link Builder#sequential(boolean)} turns this off.
 */
public final class PlanVm {

    /** DESIGN P11: a run stops after this many executed instructions unless configured otherwise. */
    public static final int DEFAULT_MAX_STEPS = 1000;

    /** The built-in LLM tool; plans calling it need an LLM, a cassette or a dry run. */
    public static final String LLM_TOOL = Preflight.LLM_TOOL;

    /** Calls one run may have started ahead of their turn at once, unless configured otherwise. */
    public static final int DEFAULT_MAX_IN_FLIGHT = 8;

    private final ToolRegistry tools;
    private final Map<String, InstructionHandler<?>> handlers;
    private final List<RunListener> listeners;
    private final CallChains.Parts chainParts;
    private final Preflight preflight;
    private final boolean sequential;
    private final int maxInFlight;
    private final Map<Plan, Dataflow> dataflows = Collections.synchronizedMap(new WeakHashMap<>());
    private volatile ExecutorService executor;
    private final int maxSteps;
    private final boolean strict;
    private final RunLimits runLimits;
    private final boolean tracing;
    private final Redactor redactor;
    private final Sleeper sleeper;

    private PlanVm(Builder b) {
        this.tools = ToolRegistry.of(b.tools);
        this.handlers = Map.copyOf(b.handlers);
        this.listeners = List.copyOf(b.listeners);
        RetrySettings retries = new RetrySettings(b.retryPolicy, b.toolRetries, b.callTimeout, b.toolTimeouts, b.maxRetryAfter);
        this.chainParts = CallChains.parts(tools).conditions(b.conditions).policy(b.toolPolicy).retries(retries)
                .toolLimits(b.toolLimits).sleeper(b.sleeper).listeners(b.callListeners).build();
        this.preflight = new Preflight(handlers, tools, b.toolPolicy, b.conditions != null, b.llmHint);
        this.sequential = b.sequential;
        this.maxInFlight = b.maxInFlight;
        this.maxSteps = b.maxSteps;
        this.strict = b.strict;
        this.runLimits = b.runLimits;
        this.tracing = b.tracing;
        this.redactor = b.redactor;
        this.sleeper = b.sleeper;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A loader that knows this VM's custom instruction types and tool names. */
    public PlanLoader loader() {
        Set<String> custom = new HashSet<>(handlers.keySet());
        custom.removeAll(BuiltinHandlers.TYPES);
        return new PlanLoader(Set.copyOf(tools.names()), custom);
    }

    public ToolRegistry tools() {
        return tools;
    }

    /** What keeps this VM's secrets out of traces, cassettes, error messages and the run store. */
    public Redactor redactor() {
        return redactor;
    }

    /** {@link #problems(Plan, RunMode)} for a live run. */
    public List<String> problems(Plan plan) {
        return problems(plan, RunMode.live());
    }

    /**
     * What stops this VM from running {@code plan} in {@code mode}, one sentence per problem, each
     * starting with the {@code seq_no}: tools that are neither installed nor answered by the
     * replayed cassette, LLM conditions with no evaluator and no cassette, types with no handler,
     * and tools the {@link ToolPolicy} denies (in every mode, dry run and replay included).
     * A dry run needs no tool and no LLM.
     */
    public List<String> problems(Plan plan, RunMode mode) {
        boolean replaying = mode instanceof RunMode.Replay;
        Set<String> answered = mode instanceof RunMode.Replay replay ? replay.cassette().tools() : Set.of();
        return preflight.problems(plan, answered, replaying, mode instanceof RunMode.DryRun);
    }

    /** Runs a plan live. See {@link #run(Plan, Checkpoint, RunMode, List, RunJournal)}. */
    public RunResult run(Plan plan, Map<String, JsonNode> inputs) {
        return run(plan, inputs, RunMode.live());
    }

    /** Runs a plan from its start with these inputs. See {@link #run(Plan, Checkpoint, RunMode, List, RunJournal)}. */
    public RunResult run(Plan plan, Map<String, JsonNode> inputs, RunMode mode) {
        return run(plan, Checkpoint.start(new LinkedHashMap<>(inputs)), mode, List.of(), null);
    }

    /**
     * Runs a plan from a checkpoint (a fresh start, or where a stored run's last committed step left
     * it) to its end. A failure while running is a failed result, never an exception.
     *
     * @param runListeners listeners of this run only, after the VM's
     * @param journal      where committed steps are made durable (a failure to record stops the run), or {@code null}
     * @throws PlanRejectedException before anything runs, when {@link #problems(Plan, RunMode)} is not empty
     */
    public RunResult run(Plan plan, Checkpoint start, RunMode mode, List<RunListener> runListeners, RunJournal journal) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(mode, "mode");
        List<String> problems = problems(plan, mode);
        if (!problems.isEmpty()) {
            throw new PlanRejectedException(problems);
        }
        CallChain chain = CallChains.standard(chainParts, modeLink(mode));
        TraceRecorder trace = tracing ? new TraceRecorder(mode.label(), redactor) : null;
        List<RunListener> all = new ArrayList<>();
        if (trace != null) {
            all.add(trace);
        }
        all.addAll(listeners);
        all.addAll(runListeners);
        Speculator speculator = sequential ? null : new Speculator(plan,
                dataflows.computeIfAbsent(plan, p -> Dataflow.of(p, tools)), handlers, runLimits, chain, executor(), maxInFlight);
        boolean retaining = trace != null || mode instanceof RunMode.Record;
        RunResult result = new Interpreter(new RunSetup(plan, handlers, chain, all, journal, maxSteps, strict, runLimits,
                redactor, mode instanceof RunMode.DryRun, speculator, retaining)).run(start);
        return trace == null ? result : result.withTrace(trace.document());
    }

    /** The link that makes a run live, recorded, replayed or dry: none for a live run. */
    private CallInterceptor modeLink(RunMode mode) {
        if (mode instanceof RunMode.Record record) {
            return new CassetteRecorder(record.recording(), redactor);
        }
        if (mode instanceof RunMode.Replay replay) {
            return new CassettePlayer(replay.cassette(), replay.timing(), redactor, sleeper);
        }
        if (mode instanceof RunMode.DryRun dry) {
            return CallChains.dryRun(dry.conditionsAnswer());
        }
        return null;
    }

    /** Threads for calls started ahead of their turn, created on first need and shared by all runs. */
    private ExecutorService executor() {
        ExecutorService current = executor;
        if (current == null) {
            synchronized (this) {
                current = executor;
                if (current == null) {
                    current = Threads.perTask("planvm-call");
                    executor = current;
                }
            }
        }
        return current;
    }

    /** Configures a {@link PlanVm}. */
    public static final class Builder {
        private final List<Tool> tools = new ArrayList<>();
        private ConditionEvaluator conditions;
        private final Map<String, InstructionHandler<?>> handlers = new LinkedHashMap<>(BuiltinHandlers.all());
        private final List<RunListener> listeners = new ArrayList<>();
        private final List<CallListener> callListeners = new ArrayList<>();
        private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
        private final Map<String, RetryPolicy> toolRetries = new LinkedHashMap<>();
        private Duration callTimeout;
        private final Map<String, Duration> toolTimeouts = new LinkedHashMap<>();
        private Duration maxRetryAfter = RetrySettings.DEFAULT_MAX_RETRY_AFTER;
        private ToolPolicy toolPolicy = ToolPolicy.ALLOW_ALL;
        private Sleeper sleeper = Sleeper.REAL;
        private final Map<String, Integer> toolLimits = new LinkedHashMap<>();
        private boolean sequential;
        private int maxInFlight = DEFAULT_MAX_IN_FLIGHT;
        private int maxSteps = DEFAULT_MAX_STEPS;
        private boolean strict;
        private RunLimits runLimits = RunLimits.DEFAULT;
        private boolean tracing = true;
        private String llmHint;
        private Redactor redactor = Redactor.none();

        private Builder() {
        }

        public Builder tool(Tool tool) {
            tools.add(Objects.requireNonNull(tool, "tool"));
            return this;
        }

        public Builder tools(Iterable<? extends Tool> more) {
            more.forEach(this::tool);
            return this;
        }

        /** Decides {@code jmp}s with a {@code condition_prompt}; without one such plans need a cassette. */
        public Builder conditionEvaluator(ConditionEvaluator evaluator) {
            this.conditions = evaluator;
            return this;
        }

        /** Registers a handler for a custom instruction type (loaded as {@link Custom}). */
        public Builder handler(String type, InstructionHandler<Custom> handler) {
            if (BuiltinHandlers.TYPES.contains(type)) {
                throw new IllegalArgumentException("'" + type + "' is a built-in instruction type");
            }
            handlers.put(type, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        public Builder listener(RunListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** Observes every tool call and condition beside the call chain. */
        public Builder callListener(CallListener listener) {
            callListeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** How retriable failures are retried (default: 3 attempts, backoff from 0.5 s); conditions too. */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** How retriable failures of {@code tool} are retried, instead of the default policy. */
        public Builder retryPolicy(String tool, RetryPolicy policy) {
            toolRetries.put(Objects.requireNonNull(tool, "tool"), Objects.requireNonNull(policy, "policy"));
            return this;
        }

        /**
         * The longest one attempt of a call (a tool or a condition) may take; a slower attempt is
         * interrupted and fails as retriable ("the call timed out after 30 s"). Default: no limit.
         */
        public Builder callTimeout(Duration timeout) {
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException("the call timeout must be positive, not " + timeout);
            }
            this.callTimeout = timeout;
            return this;
        }

        /** The longest one attempt of a call of {@code tool} may take, instead of the default; zero: no limit. */
        public Builder callTimeout(String tool, Duration timeout) {
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("the timeout of tool '" + tool + "' must not be negative");
            }
            toolTimeouts.put(Objects.requireNonNull(tool, "tool"), timeout);
            return this;
        }

        /** The longest {@code Retry-After} waited for (default 60 s); a failure asking for more fails at once. */
        public Builder maxRetryAfter(Duration max) {
            this.maxRetryAfter = Objects.requireNonNull(max, "max");
            return this;
        }

        /** Which tools plans may call (default: all); a plan calling a denied tool is refused before it runs. */
        public Builder toolPolicy(ToolPolicy policy) {
            this.toolPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** How the VM waits between attempts and, replaying with timing, each recorded duration (tests do not wait). */
        public Builder retrySleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * Sequential: every call waits for its turn. By default (false) a call whose inputs are final
         * starts early, so independent calls overlap; results are the same either way.
         */
        public Builder sequential(boolean sequential) {
            this.sequential = sequential;
            return this;
        }

        /** The most calls one run may have started ahead of their turn at once (default 8). */
        public Builder maxInFlightPerRun(int maxInFlight) {
            if (maxInFlight < 1) {
                throw new IllegalArgumentException("maxInFlightPerRun must be at least 1");
            }
            this.maxInFlight = maxInFlight;
            return this;
        }

        /** The most calls of {@code tool} that may run at once across all runs of this VM (default: no limit). */
        public Builder toolConcurrency(String tool, int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("the concurrency of tool '" + tool + "' must be at least 1");
            }
            toolLimits.put(Objects.requireNonNull(tool, "tool"), limit);
            return this;
        }

        /** DESIGN P11: the most instructions one run may execute (default 1000). */
        public Builder maxSteps(int maxSteps) {
            if (maxSteps < 1) {
                throw new IllegalArgumentException("maxSteps must be at least 1");
            }
            this.maxSteps = maxSteps;
            return this;
        }

        /** How long one string, how large one variable and one whole run may be (default {@link RunLimits#DEFAULT}). */
        public Builder runLimits(RunLimits limits) {
            this.runLimits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /** Strict: a run that never sets {@code final_answer} fails instead of returning null. */
        public Builder strict(boolean strict) {
            this.strict = strict;
            return this;
        }

        /** Whether runs build a trace document (on by default). */
        public Builder tracing(boolean tracing) {
            this.tracing = tracing;
            return this;
        }

        /**
         * Why no LLM is available (e.g. which environment variables to set); used in the message
         * that refuses a plan calling {@code llm_generate} or using a {@code condition_prompt}.
         */
        public Builder llmUnavailable(String hint) {
            this.llmHint = hint;
            return this;
        }

        /**
         * Secret values (name to value, each at least {@link Redactor#MIN_LENGTH} characters): they
         * never reach traces, recorded cassettes, error messages or the run store.
         */
        public Builder secrets(Map<String, String> secrets) {
            this.redactor = this.redactor.and(Redactor.of(secrets));
            return this;
        }

        public PlanVm build() {
            return new PlanVm(this);
        }
    }
}
