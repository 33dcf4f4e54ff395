package dev.planvm.vm;

import dev.planvm.instructions.Custom;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolObjectAdapter;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolResolver;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.call.Sleeper;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.internal.handlers.BuiltinHandlers;
import dev.planvm.vm.plantools.PlanTools;
import dev.planvm.vm.run.CallScheduler;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunListener;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Configures a {@link PlanVm}: {@code PlanVm.builder()...build()}. Not thread-safe; the VM it builds is. */
public final class PlanVmBuilder {
    final List<Tool> tools = new ArrayList<>();
    ConditionEvaluator conditions;
    final Map<String, InstructionHandler<?>> handlers = new LinkedHashMap<>(BuiltinHandlers.all());
    final List<RunListener> listeners = new ArrayList<>();
    RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
    final Map<String, RetryPolicy> toolRetries = new LinkedHashMap<>();
    Duration callTimeout;
    final Map<String, Duration> toolTimeouts = new LinkedHashMap<>();
    Duration maxRetryAfter = RetrySettings.DEFAULT_MAX_RETRY_AFTER;
    ToolPolicy toolPolicy = ToolPolicy.ALLOW_ALL;
    Sleeper sleeper = Sleeper.REAL;
    java.time.Clock clock = java.time.Clock.systemDefaultZone();
    final Map<String, Integer> toolLimits = new LinkedHashMap<>();
    boolean sequential;
    int maxInFlight = PlanVm.DEFAULT_MAX_IN_FLIGHT;
    boolean adaptiveConcurrency = true;
    int maxSteps = PlanVm.DEFAULT_MAX_STEPS;
    boolean strict;
    RunLimits runLimits = RunLimits.DEFAULT;
    boolean tracing = true;
    String llmHint;
    Redactor redactor = Redactor.none();
    final List<AutoCloseable> resources = new ArrayList<>();
    ToolResolver resolver = ToolResolver.NONE;
    ApprovalRules approveTools = ApprovalRules.NONE;
    dev.planvm.instructions.reach.ReachPolicy reachPolicy = dev.planvm.instructions.reach.ReachPolicy.NONE;
    Approvals reviewer;
    final List<CallInterceptor> routing = new ArrayList<>();
    Supplier<? extends CallScheduler> schedulers;
    long maxTokens = dev.planvm.tools.call.TokenBudget.UNLIMITED;
    final List<Plan> planTools = new ArrayList<>();
    final List<Path> planToolDirs = new ArrayList<>();
    Predicate<Path> planToolFile = PlanTools::isJsonPlanFile;
    /** JSON plan files by default; the loader is made only when a plan-tools directory is read. */
    Function<Path, LoadResult> planToolLoader = file -> new PlanLoader().load(file);

    int maxPlanDepth = PlanTools.DEFAULT_MAX_DEPTH;
    dev.planvm.vm.plantools.ChildRunner childRunner;
    io.opentelemetry.api.OpenTelemetry openTelemetry;

    PlanVmBuilder() {}

    /**
     * A plan that names itself ({@code {"name": ..., "inputs": {...}, "plan": [...]}}) offered as a tool:
     * other plans call it with a {@code calling} step, and it runs as a child run on this VM. See
     * {@link dev.planvm.vm.plantools.PlanTool}.
     */
    public PlanVmBuilder planTool(Plan plan) {
        planTools.add(Objects.requireNonNull(plan, "plan"));
        return this;
    }

    /** {@link #planTool} for each plan. */
    public PlanVmBuilder planTools(Collection<Plan> plans) {
        plans.forEach(this::planTool);
        return this;
    }

    /**
     * Every plan file of this directory (not recursive) as a plan tool, loaded when the VM is built
     * ({@code *.json} by default; {@link #planToolFiles} for other dialects). A file that does not load,
     * or does not name itself, refuses the build ({@link dev.planvm.vm.plantools.PlanToolsException}).
     */
    public PlanVmBuilder planTools(Path directory) {
        planToolDirs.add(Objects.requireNonNull(directory, "directory"));
        return this;
    }

    /** Which files of a plan-tools directory are plans, and how each is loaded (e.g. every dialect). */
    public PlanVmBuilder planToolFiles(Predicate<Path> isPlan, Function<Path, LoadResult> loader) {
        planToolFile = Objects.requireNonNull(isPlan, "isPlan");
        planToolLoader = Objects.requireNonNull(loader, "loader");
        return this;
    }

    /**
     * Where the child runs of plan-tool calls run instead of on this VM (a Temporal workflow runs each as a
     * child workflow); the calls are checked as they are for a child run on the VM.
     */
    public PlanVmBuilder childRunner(dev.planvm.vm.plantools.ChildRunner runner) {
        childRunner = Objects.requireNonNull(runner, "runner");
        return this;
    }

    /** How deep plan tools may call plan tools (default {@value PlanTools#DEFAULT_MAX_DEPTH}). */
    public PlanVmBuilder maxPlanDepth(int depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("the plan depth must not be negative, not " + depth);
        }
        maxPlanDepth = depth;
        return this;
    }

    /**
     * The tools of a tools configuration ({@code planvm.json}: MCP servers, HTTP and OpenAPI tools,
     * tool jars, knowledge bases) and of every {@code ToolProvider} on the class path, set up with the
     * process environment; their secrets are redacted like every secret, and {@link PlanVm#close()}
     * stops what they started. {@code null}: no file, the class path's providers only.
     *
     * @throws dev.planvm.tools.config.ToolsConfigException listing every problem of the file
     */
    public PlanVmBuilder config(Path file) {
        return tools(
                ToolsConfig.load(file, System.getenv(), Map.of(), ToolsConfig.classPathProviders()),
                ToolPolicy.ALLOW_ALL);
    }

    /**
     * The tools of a loaded configuration, less the aliases {@code policy} refuses; also its
     * condition evaluator, its secrets, and why {@code llm_generate} is unavailable when it is.
     * {@link PlanVm#close()} closes {@code loaded}.
     */
    public PlanVmBuilder tools(LoadedTools loaded, ToolPolicy policy) {
        tools(loaded.tools(policy));
        resolver = loaded.resolver(policy);
        Map<String, String> redactable = new LinkedHashMap<>();
        loaded.secretsUsed().forEach((name, value) -> {
            if (value.length() >= Redactor.MIN_LENGTH) { // a shorter value cannot be told apart from ordinary text
                redactable.put(name, value);
            }
        });
        secrets(redactable);
        loaded.conditionEvaluator().ifPresent(this::conditionEvaluator);
        String llmMissing = loaded.unavailable().get(PlanVm.LLM_TOOL);
        if (llmMissing != null && llmHint == null) {
            llmUnavailable(llmMissing);
        }
        if (!loaded.approveTools().isEmpty()) {
            approveTools(loaded.approveTools());
        }
        reachPolicy(dev.planvm.vm.internal.PolicySection.policy(loaded.setup()));
        loaded.planToolDirs().forEach(this::planTools);
        resources.add(loaded);
        return this;
    }

    public PlanVmBuilder tool(Tool tool) {
        tools.add(Objects.requireNonNull(tool, "tool"));
        return this;
    }

    public PlanVmBuilder tools(Iterable<? extends Tool> more) {
        more.forEach(this::tool);
        return this;
    }

    /**
     * Adds each tool method of {@code toolObject}: its langchain4j {@code @Tool} methods, with their
     * names, descriptions and params schemas (planvm-llm on the class path; {@code
     * Langchain4jTools.from(toolObject)} is the same list).
     *
     * @throws IllegalArgumentException when the object has no tool methods planvm knows
     */
    public PlanVmBuilder toolsFrom(Object toolObject) {
        return tools(ToolObjectAdapter.toolsFrom(toolObject));
    }

    /** Decides {@code jmp}s with a {@code condition_prompt}; without one such plans need a cassette. */
    public PlanVmBuilder conditionEvaluator(ConditionEvaluator evaluator) {
        this.conditions = evaluator;
        return this;
    }

    /** Registers a handler for a custom instruction type (loaded as {@link Custom}). */
    public PlanVmBuilder handler(String type, InstructionHandler<Custom> handler) {
        if (BuiltinHandlers.TYPES.contains(type)) {
            throw new IllegalArgumentException("'" + type + "' is a built-in instruction type");
        }
        handlers.put(type, Objects.requireNonNull(handler, "handler"));
        return this;
    }

    /**
     * Observes every run of this VM, its steps and its tool calls and conditions (before the listeners a run
     * request brings). A listener that throws is logged once and never breaks a run.
     */
    public PlanVmBuilder listener(RunListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    /** How retriable failures are retried (default: 3 attempts, backoff from 0.5 s); conditions too. */
    public PlanVmBuilder retryPolicy(RetryPolicy policy) {
        this.retryPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** How retriable failures of {@code tool} are retried, instead of the default policy. */
    public PlanVmBuilder retryPolicy(String tool, RetryPolicy policy) {
        toolRetries.put(Objects.requireNonNull(tool, "tool"), Objects.requireNonNull(policy, "policy"));
        return this;
    }

    /**
     * The longest one attempt of a call (a tool or a condition) may take; a slower attempt is
     * interrupted and fails as retriable ("the call timed out after 30 s"). Default: no limit.
     */
    public PlanVmBuilder callTimeout(Duration timeout) {
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("the call timeout must be positive, not " + timeout);
        }
        this.callTimeout = timeout;
        return this;
    }

    /** The longest one attempt of a call of {@code tool} may take, instead of the default; zero: no limit. */
    public PlanVmBuilder callTimeout(String tool, Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("the timeout of tool '" + tool + "' must not be negative");
        }
        toolTimeouts.put(Objects.requireNonNull(tool, "tool"), timeout);
        return this;
    }

    /** The longest {@code Retry-After} waited for (default 60 s); a failure asking for more fails at once. */
    public PlanVmBuilder maxRetryAfter(Duration max) {
        this.maxRetryAfter = Objects.requireNonNull(max, "max");
        return this;
    }

    /** Which tools plans may call (default: all); a plan calling a denied tool is refused before it runs. */
    public PlanVmBuilder toolPolicy(ToolPolicy policy) {
        this.toolPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * A link of every run's call chain after the run mode's (record, replay, dry run) and before
     * retries: it sees each call a replay or dry run did not answer and may answer it itself (send
     * it elsewhere) or pass it on. Links added later come later.
     */
    public PlanVmBuilder callInterceptor(CallInterceptor link) {
        routing.add(Objects.requireNonNull(link, "link"));
        return this;
    }

    /**
     * Where each run gets its {@link CallScheduler} (how early calls run and are waited for, and
     * the run's clocks); by default threads of this process and the system clocks. Each plan still
     * arriving ({@link RunSession#startEarly}) gets one too, for the calls it starts.
     */
    public PlanVmBuilder callScheduler(Supplier<? extends CallScheduler> perRun) {
        this.schedulers = Objects.requireNonNull(perRun, "perRun");
        return this;
    }

    /** How the VM waits between attempts and, replaying with timing, each recorded duration (tests do not wait). */
    public PlanVmBuilder retrySleeper(Sleeper sleeper) {
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        return this;
    }

    /**
     * Where a run takes its clock when it brings none ({@code RunOptions#clock}) and replays no cassette
     * that has one: its instant when the run starts and its zone (default: the system clock and zone).
     * The date/time helpers of the run read that fixed clock, never this one.
     */
    public PlanVmBuilder clock(java.time.Clock source) {
        this.clock = Objects.requireNonNull(source, "source");
        return this;
    }

    /**
     * Sequential: every call waits for its turn. By default (false) a call whose inputs are final
     * starts early, so independent calls overlap; results are the same either way.
     */
    public PlanVmBuilder sequential(boolean sequential) {
        this.sequential = sequential;
        return this;
    }

    /**
     * The most calls a run and the child runs of its plan tools may have in flight at once beside the run's own
     * thread: calls started ahead of their turn and {@code for_each} elements (default
     * {@link PlanVm#DEFAULT_MAX_IN_FLIGHT}). A hard ceiling; each tool's own limit adapts below it
     * ({@link #adaptiveConcurrency}).
     */
    public PlanVmBuilder maxInFlightPerRun(int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlightPerRun must be at least 1");
        }
        this.maxInFlight = maxInFlight;
        return this;
    }

    /**
     * The most calls of {@code tool} that may run at once across all runs of this VM: a hard ceiling for its
     * adaptive limit (default: none but the adaptive limit's own maximum).
     */
    public PlanVmBuilder toolConcurrency(String tool, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the concurrency of tool '" + tool + "' must be at least 1");
        }
        toolLimits.put(Objects.requireNonNull(tool, "tool"), limit);
        return this;
    }

    /**
     * Whether each tool's concurrency limit adapts to how its calls go (default true): it starts wide (256 calls
     * in flight; the LLM's 16), grows while calls answer in steady time and shrinks on overloads (HTTP 429,
     * 503, {@code Retry-After}), timeouts and growing latency, never above {@link #toolConcurrency}. Off, only the
     * limits given to {@link #toolConcurrency} apply, fixed.
     */
    public PlanVmBuilder adaptiveConcurrency(boolean adaptive) {
        this.adaptiveConcurrency = adaptive;
        return this;
    }

    /** DESIGN P11: the most instructions one run may execute (default 1000). */
    public PlanVmBuilder maxSteps(int maxSteps) {
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps must be at least 1");
        }
        this.maxSteps = maxSteps;
        return this;
    }

    /** How long one string, how large one variable and one whole run may be (default {@link RunLimits#DEFAULT}). */
    public PlanVmBuilder runLimits(RunLimits limits) {
        this.runLimits = Objects.requireNonNull(limits, "limits");
        return this;
    }

    /**
     * The most tokens (prompt and completion, as the LLM server counts them) the calls of one run may
     * spend — of one session ({@link PlanVm#session}) when runs share one, as an agent's planning and
     * runs do. A call is refused once the budget is spent, and the call after which the total passes
     * it fails its step: the run fails with a sentence naming the budget. Default: no limit.
     */
    public PlanVmBuilder maxTokens(long maxTokens) {
        if (maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1");
        }
        this.maxTokens = maxTokens;
        return this;
    }

    /** Strict: a run that never sets {@code final_answer} fails instead of returning null. */
    public PlanVmBuilder strict(boolean strict) {
        this.strict = strict;
        return this;
    }

    /**
     * Where runs send OpenTelemetry spans: one per run ({@code planvm.run}), per step and per tool call or
     * LLM call, parented even when a call starts ahead of its step's turn; the call's context is current
     * while it runs, so HTTP, OpenAPI and MCP-over-HTTP tools send it on as W3C {@code traceparent}. None
     * by default (no span is made, nothing is loaded): pass {@code GlobalOpenTelemetry.get()} to follow the
     * application's global one. Attributes never hold params, answers or prompts; error messages are
     * redacted. See docs/guides/observability.md.
     */
    public PlanVmBuilder openTelemetry(io.opentelemetry.api.OpenTelemetry telemetry) {
        this.openTelemetry = Objects.requireNonNull(telemetry, "telemetry");
        return this;
    }

    /** Whether runs build a trace document (on by default). */
    public PlanVmBuilder tracing(boolean tracing) {
        this.tracing = tracing;
        return this;
    }

    /**
     * Why no LLM is available (e.g. which environment variables to set); used in the message
     * that refuses a plan calling {@code llm_generate} or using a {@code condition_prompt}.
     */
    public PlanVmBuilder llmUnavailable(String hint) {
        this.llmHint = hint;
        return this;
    }

    /**
     * Secret values (name to value, each at least {@link Redactor#MIN_LENGTH} characters): they
     * never reach traces, recorded cassettes, error messages or the run store.
     */
    public PlanVmBuilder secrets(Map<String, String> secrets) {
        this.redactor = this.redactor.and(Redactor.of(secrets));
        return this;
    }

    /**
     * Tools whose every call needs a reviewer's approval (globs, e.g. {@code send_*}; added to any given
     * before). Before such a call a live or recording run asks the run's {@link Approvals} (a durable
     * run: the decisions recorded in its store; else {@link #approvals}); with no decision yet it ends
     * {@code waiting}, the pending call in its result. Such tools never start ahead of their turn. Dry
     * runs and replays call nothing real and ask nobody.
     *
     * @throws IllegalArgumentException for a malformed glob
     */
    public PlanVmBuilder approveTools(List<String> globs) {
        this.approveTools = this.approveTools.and(ApprovalRules.of(globs));
        return this;
    }

    /**
     * What plans must not be able to do on any path ({@code requireApprovalFor}, {@code maxCalls}, {@code denyFlows};
     * added to any given before, as {@link dev.planvm.instructions.reach.ReachPolicy#and} says): every run checks its
     * plan before anything runs ({@link PlanVm#problems(dev.planvm.instructions.Plan, RunMode,
     * dev.planvm.vm.run.RunOptions)}) and a plan that breaks it is refused, the path named. The configuration's
     * {@code policy} section is added by {@link #tools(LoadedTools, ToolPolicy)}.
     */
    public PlanVmBuilder reachPolicy(dev.planvm.instructions.reach.ReachPolicy policy) {
        this.reachPolicy = this.reachPolicy.and(Objects.requireNonNull(policy, "policy"));
        return this;
    }

    /**
     * Who decides approvals when a run brings no decision of its own (e.g. a prompt on a terminal); a
     * decision it gives is recorded with a durable run. Default: nobody, so such runs wait.
     */
    public PlanVmBuilder approvals(Approvals reviewer) {
        this.reviewer = reviewer;
        return this;
    }

    public PlanVm build() {
        return new PlanVm(this);
    }
}
