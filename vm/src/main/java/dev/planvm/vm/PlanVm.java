package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.approval.PersonTools;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.call.Sleeper;
import dev.planvm.tools.call.TokenBudget;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.tools.cassette.Recording;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import dev.planvm.vm.internal.CallSlots;
import dev.planvm.vm.internal.Dataflows;
import dev.planvm.vm.internal.EarlyAnswers;
import dev.planvm.vm.internal.EarlyStartRule;
import dev.planvm.vm.internal.Interpreter;
import dev.planvm.vm.internal.Listeners;
import dev.planvm.vm.internal.Preflight;
import dev.planvm.vm.internal.RunSetup;
import dev.planvm.vm.internal.RunSpans;
import dev.planvm.vm.internal.RunTree;
import dev.planvm.vm.internal.Speculator;
import dev.planvm.vm.internal.StreamedStarts;
import dev.planvm.vm.internal.ThreadScheduler;
import dev.planvm.vm.internal.handlers.BuiltinHandlers;
import dev.planvm.vm.plantools.ChildRuns;
import dev.planvm.vm.plantools.ParentRun;
import dev.planvm.vm.plantools.PlanTool;
import dev.planvm.vm.plantools.PlanToolCalls;
import dev.planvm.vm.plantools.PlanTools;
import dev.planvm.vm.run.CallScheduler;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.Threads;
import dev.planvm.vm.trace.TraceRecorder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import java.util.function.Supplier;

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
 * {@link CallChains#standard}: permission → record/replay (or dry run) → the builder's
 * {@linkplain PlanVmBuilder#callInterceptor call interceptors}, if any → retry → per-tool limit →
 * attempt timeout → the tool.
 *
 * <p>Runs keep the sequential semantics of the plan language, but by default a call whose inputs
 * are final starts before its turn, so independent calls of a basic block overlap; variables,
 * trace order, errors and {@code final_answer} are exactly those of a sequential run.
 * {@link PlanVmBuilder#sequential(boolean)} turns this off.
 */
public final class PlanVm implements AutoCloseable {

    /** DESIGN P11: a run stops after this many executed instructions unless configured otherwise. */
    public static final int DEFAULT_MAX_STEPS = 1000;

    /** The built-in LLM tool; plans calling it need an LLM, a cassette or a dry run. */
    public static final String LLM_TOOL = Preflight.LLM_TOOL;

    /**
     * Calls a run and the child runs of its plan tools may have in flight at once beside the run's own thread,
     * unless configured otherwise: wide enough that a map of a few hundred elements starts at once; each tool's
     * adaptive limit decides how many of them its calls take (docs/performance.md has the measurements).
     */
    public static final int DEFAULT_MAX_IN_FLIGHT = 256;

    private final ToolRegistry tools;
    private final Map<String, InstructionHandler<?>> handlers;
    private final List<RunListener> listeners;
    private final CallChains.Parts chainParts;
    private final Preflight preflight;
    private final boolean sequential;
    private final int maxInFlight;
    private final Dataflows dataflows;
    private volatile ExecutorService executor;
    private final int maxSteps;
    private final boolean strict;
    private final RunLimits runLimits;
    private final boolean tracing;
    private final Redactor redactor;
    private final List<AutoCloseable> resources;
    private final ApprovalRules approveTools;
    private final dev.planvm.instructions.reach.ReachPolicy reachPolicy;
    private final Approvals reviewer;
    /** The built-in tools answered by a run's person link: those no user tool of the same name replaces. */
    private final Set<String> personTools;

    private final Sleeper sleeper;
    /** Where child runs of plan-tool calls run, or {@code null}: on this VM. */
    private final dev.planvm.vm.plantools.ChildRunner childRunner;

    private final Supplier<? extends CallScheduler> schedulers;
    private final long maxTokens;
    private final java.time.Clock clockSource;
    /** The VM's plan tools by canonical name (each run of a VM with some gets a {@link PlanToolCalls} link). */
    private final Map<String, PlanTool> planTools;
    /**
     * The plan tools this VM could not offer, by name (or file), and why: a plan that can reach one is refused
     * before it runs ({@link #problems}); the others run.
     */
    private final Map<String, String> unusablePlanTools;
    /** What this VM was built from: a VM with other plan tools is built from it too ({@link #withPlanTools}). */
    private final PlanVmBuilder builder;
    /** The VMs {@link #withPlanTools} derived from this one, by the digests of their plan tools. */
    private final Map<String, PlanVm> derived = new java.util.concurrent.ConcurrentHashMap<>();
    /** The problems of the plan-tool files whose name cannot be read (a call of a tool not installed names them). */
    private final List<String> unnamedPlanTools;
    /** Where runs send their spans, or {@code null}: no spans. */
    private final io.opentelemetry.api.trace.Tracer tracer;

    PlanVm(PlanVmBuilder b) {
        this(b, null);
    }

    /**
     * @param planTools {@code null} for the builder's plan tools; else exactly these (a VM derived from another
     *                  by {@link #withPlanTools}, which owns none of the builder's resources)
     */
    private PlanVm(PlanVmBuilder b, List<Plan> planTools) {
        this.builder = b;
        PlanTools.Checked checked = planTools == null
                ? checkedPlanTools(b)
                : PlanTools.check(
                        new PlanTools.Read(List.of(), Map.of(), List.of()),
                        planTools,
                        b.tools.stream().map(Tool::name).collect(java.util.stream.Collectors.toSet()),
                        b.maxPlanDepth);
        this.unusablePlanTools = checked.unusable();
        this.unnamedPlanTools = checked.unnamed();
        this.tools = ToolRegistry.of(withBuiltIns(withPlanTools(b, checked)), b.resolver);
        Set<String> builtIns = new HashSet<>();
        for (Tool builtIn : PersonTools.all()) {
            tools.find(builtIn.name()).filter(PersonTools::isBuiltIn).ifPresent(found -> builtIns.add(found.name()));
        }
        this.personTools = Set.copyOf(builtIns);
        this.planTools = PlanToolCalls.index(tools.all());
        this.handlers = Map.copyOf(b.handlers);
        this.listeners = List.copyOf(b.listeners);
        this.resources = planTools == null ? List.copyOf(b.resources) : List.of(); // a derived VM shares them
        this.schedulers = b.schedulers != null ? b.schedulers : () -> new ThreadScheduler(this::executor);
        RetrySettings retries =
                new RetrySettings(b.retryPolicy, b.toolRetries, b.callTimeout, b.toolTimeouts, b.maxRetryAfter);
        CallChains.PartsBuilder parts = CallChains.parts(tools)
                .conditions(b.conditions)
                .policy(b.toolPolicy)
                .retries(retries)
                .toolLimits(b.toolLimits)
                .sleeper(b.sleeper)
                .routing(b.routing);
        parts.llmTools(Set.of(LLM_TOOL)); // by name: looking the tool up could start MCP servers
        if (!b.adaptiveConcurrency) {
            parts.fixedLimits();
        }
        this.chainParts = parts.build();
        this.preflight = new Preflight(
                handlers, tools, b.toolPolicy, b.conditions != null, b.llmHint, unusablePlanTools, unnamedPlanTools);
        this.sequential = b.sequential;
        this.maxInFlight = b.maxInFlight;
        this.maxSteps = b.maxSteps;
        this.strict = b.strict;
        this.runLimits = b.runLimits;
        this.tracing = b.tracing;
        this.redactor = b.redactor;
        this.approveTools = b.approveTools;
        this.reachPolicy = b.reachPolicy;
        this.dataflows = new Dataflows(tools, chainParts.policy(), approveTools);
        this.reviewer = b.reviewer;
        this.sleeper = b.sleeper;
        this.childRunner = b.childRunner;
        this.maxTokens = b.maxTokens;
        this.clockSource = b.clock;
        this.tracer = b.openTelemetry == null ? null : b.openTelemetry.getTracer("dev.planvm.vm");
    }

    /** {@code tools} and the built-in {@code human_input} and {@code sleep}, unless a tool has their name. */
    private static List<Tool> withBuiltIns(List<Tool> tools) {
        Set<String> names = new HashSet<>();
        tools.forEach(t -> names.add(t.name()));
        List<Tool> all = new ArrayList<>(tools);
        PersonTools.all().stream().filter(t -> !names.contains(t.name())).forEach(all::add);
        return all;
    }

    /** Whether {@code plan} calls a built-in tool answered by the run's person link ({@code human_input}, {@code sleep}). */
    private boolean callsPersonTools(Plan plan) {
        if (personTools.isEmpty()) {
            return false;
        }
        for (dev.planvm.instructions.Instruction instruction : plan.instructions()) {
            if (instruction instanceof dev.planvm.instructions.Calling calling
                    && personTools.contains(tools.knownCanonicalName(calling.tool()))) {
                return true;
            }
        }
        return false;
    }

    /** The builder's plan tools and those of its directories, checked as a whole (the unusable ones named). */
    private static PlanTools.Checked checkedPlanTools(PlanVmBuilder b) {
        PlanTools.Read read = PlanTools.read(b.planToolDirs, b.planToolFile, b.planToolLoader);
        Set<String> others = new HashSet<>();
        b.tools.forEach(t -> others.add(t.name()));
        return PlanTools.check(read, b.planTools, others, b.maxPlanDepth);
    }

    /** The builder's tools and its usable plan tools (which run their plans on this VM). */
    private List<Tool> withPlanTools(PlanVmBuilder b, PlanTools.Checked checked) {
        if (checked.usable().isEmpty()) {
            return b.tools;
        }
        List<Tool> all = new ArrayList<>(b.tools);
        all.addAll(PlanTools.of(checked, new ChildRuns() {
            @Override
            public Outcome run(Plan plan, Map<String, JsonNode> inputs) {
                try {
                    return new Outcome(PlanVm.this.run(plan, inputs), List.of());
                } catch (PlanRejectedException e) {
                    return new Outcome(null, e.problems());
                }
            }

            @Override
            public java.util.Optional<Tool> tool(String name) {
                return tools.find(name);
            }
        }));
        return all;
    }

    public static PlanVmBuilder builder() {
        return new PlanVmBuilder();
    }

    /**
     * Stops the threads this VM started and closes what its configuration opened (MCP servers, tool
     * jars). Runs must have ended.
     */
    @Override
    public void close() {
        derived.values().forEach(PlanVm::close); // their threads; the resources are this VM's
        ExecutorService current = executor;
        if (current != null) {
            current.shutdownNow();
        }
        RuntimeException failure = null;
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                failure = failure != null
                        ? failure
                        : new IllegalStateException("cannot close " + resource + ": " + e.getMessage(), e);
            }
        }
        if (failure != null) {
            throw failure;
        }
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

    /**
     * The plan tools this VM could not offer, and why, by tool name (or by file, for a file whose name cannot be
     * read): a file that does not load, a name taken twice, a plan tool that reaches itself or calls plan tools
     * deeper than the limit, or one that calls such a plan tool. A plan that calls one is refused before it runs.
     */
    public Map<String, String> unusablePlanTools() {
        return unusablePlanTools;
    }

    /**
     * The plan tools a run of {@code plan} can reach on this VM: those it calls, and those they call, at any depth;
     * each once, in the order first reached. A durable run keeps them with it, so that a resume, approval, answer
     * or rerun runs with the very plan tools it started with ({@link #withPlanTools}).
     */
    public List<Plan> planToolsFor(Plan plan) {
        Map<String, Plan> reached = new LinkedHashMap<>();
        java.util.Deque<Plan> work = new java.util.ArrayDeque<>(List.of(plan));
        while (!work.isEmpty()) {
            for (dev.planvm.instructions.Instruction instruction : work.pop().instructions()) {
                if (instruction instanceof dev.planvm.instructions.Calling calling) {
                    PlanTool tool = planTools.get(calling.tool());
                    if (tool != null && reached.putIfAbsent(tool.name(), tool.plan()) == null) {
                        work.push(tool.plan());
                    }
                }
            }
        }
        return List.copyOf(reached.values());
    }

    /**
     * This VM with {@code planTools} as its plan tools of those names (its other plan tools stay): what a stored run
     * started with, so that continuing it does not depend on what the plan-tool folders hold now. Everything else is
     * this VM's — tools, policy, limits, resources (which stay this VM's to close) — and {@link #close()} closes the
     * VMs derived from it. One VM per set of plan tools, made once. No plan tools: this VM.
     */
    public PlanVm withPlanTools(List<Plan> planTools) {
        if (planTools.isEmpty()) {
            return this;
        }
        Map<String, Plan> merged = new LinkedHashMap<>();
        for (Plan plan : planTools) {
            merged.put(plan.signature().map(PlanSignature::name).orElse(plan.source()), plan);
        }
        this.planTools.values().forEach(own -> merged.putIfAbsent(own.name(), own.plan()));
        String key = merged.values().stream()
                .map(plan -> plan.digest() + "@" + plan.source())
                .sorted()
                .collect(java.util.stream.Collectors.joining(","));
        return derived.computeIfAbsent(key, k -> new PlanVm(builder, List.copyOf(merged.values())));
    }

    /**
     * The problems of the plan-tool files that do not load and whose name cannot be read, each naming its file:
     * a plan calling a tool that is not installed is told of them.
     */
    public List<String> unnamedPlanTools() {
        return unnamedPlanTools;
    }

    /**
     * The call chain a run in {@code mode} sends its calls through (permission, record or replay,
     * retries, timeouts, secrets), for calls made on a plan's behalf outside a plan: {@code planvm kb
     * index --graph} sends its extraction calls to {@code llm_generate} this way, so a cassette records
     * and replays them like a plan's calls.
     */
    public CallChain callChain(RunMode mode) {
        return session(mode).chain(List.of(), List.of());
    }

    /**
     * The concurrency limit of each tool called so far, across every run of this VM, by tool: where each adaptive
     * limit stands, how many calls are in flight and waiting, how many the tool refused for load.
     */
    public Map<String, dev.planvm.vm.run.ToolLimit> toolLimits() {
        Map<String, dev.planvm.vm.run.ToolLimit> limits = new java.util.TreeMap<>();
        chainParts
                .toolLimits()
                .forEach((tool, state) -> limits.put(
                        tool,
                        new dev.planvm.vm.run.ToolLimit(
                                tool, (int) state[0], (int) state[1], (int) state[2], state[3], state[4])));
        return limits;
    }

    /** Which tools plans may call here. */
    public ToolPolicy toolPolicy() {
        return chainParts.policy();
    }

    /** Whether {@code condition_prompt} jumps can be decided live (an LLM condition evaluator is configured). */
    public boolean hasConditionEvaluator() {
        return preflight.hasConditionEvaluator();
    }

    /** What keeps this VM's secrets out of traces, cassettes, error messages and the run store. */
    public Redactor redactor() {
        return redactor;
    }

    /** The tools whose calls need a reviewer's approval in every run of this VM. */
    public ApprovalRules approveTools() {
        return approveTools;
    }

    /** What plans must not be able to do here ({@link PlanVmBuilder#reachPolicy}); {@code NONE}: no check. */
    public dev.planvm.instructions.reach.ReachPolicy reachPolicy() {
        return reachPolicy;
    }

    /**
     * What {@code plan} can do when run here in {@code mode} with {@code options} ({@code planvm validate --reach}):
     * its reach with this VM's tools, plan tools and secrets, the approval rules of the VM and of the run, checked
     * against this VM's reach policy. In a replay or a dry run no tool is set up to learn about it.
     */
    public dev.planvm.instructions.reach.Reach reach(Plan plan, RunMode mode, RunOptions options) {
        boolean answered = mode instanceof RunMode.Replay || mode instanceof RunMode.DryRun;
        dev.planvm.vm.reach.RegistryFacts facts = dev.planvm.vm.reach.RegistryFacts.of(
                tools, approveTools.and(options.approvalRules()), Map.of(), !answered);
        return dev.planvm.instructions.reach.PlanReach.analyze(plan, facts, redactor.names(), reachPolicy);
    }

    /** Who decides approvals when a run brings no decision of its own, or {@code null} (runs then wait). */
    public Approvals reviewer() {
        return reviewer;
    }

    /**
     * The clock this VM's {@code sleep} calls (and retries) read ({@link PlanVmBuilder#clock}): what a timer that
     * wakes a sleeping run compares its wake time with.
     */
    public java.time.Clock clock() {
        return clockSource;
    }

    /** How large a value one variable of this VM's runs may hold, and a whole run ({@link RunLimits}). */
    public RunLimits runLimits() {
        return runLimits;
    }

    /**
     * What refuses {@code plan} on this VM whatever a run sets up, each located ({@code seq_no}, JSON pointer):
     * a call of a tool the policy denies, a call of a plan tool that cannot be used
     * ({@link #unusablePlanTools()}), params written out that cannot fit the params schema of a tool known here.
     * {@code planvm validate} refuses exactly these beside the loader's errors; every run refuses them too
     * ({@link #problems}), with what only a run can know (a tool not installed, an LLM condition with no LLM).
     * Sets no tool up (starts no MCP server).
     */
    public List<Diagnostic> refusals(Plan plan) {
        return preflight.refusals(plan);
    }

    /** {@link #problems(Plan, RunMode)} for a live run. */
    public List<String> problems(Plan plan) {
        return problems(plan, RunMode.live());
    }

    /**
     * What stops this VM from running {@code plan} in {@code mode}, one sentence per problem, each
     * starting with the {@code seq_no}: in a live or recorded run, tools that are not installed and
     * LLM conditions with no evaluator; in every mode, types with no handler and tools the
     * {@link ToolPolicy} denies. A replay and a dry run need no tool and no LLM: in a replay, a call
     * the cassette cannot answer fails when it is made, as a cassette miss ({@link #warnings} names
     * such calls beforehand).
     */
    public List<String> problems(Plan plan, RunMode mode) {
        Set<String> live = mode instanceof RunMode.Replay replay ? replay.live() : Set.of();
        return preflight.problems(plan, mode instanceof RunMode.Replay, mode instanceof RunMode.DryRun, live);
    }

    /** {@link #warnings(Plan, RunMode, int)} for a run from the plan's start. */
    public List<Diagnostic> warnings(Plan plan, RunMode mode) {
        return warnings(plan, mode, 0);
    }

    /**
     * What may fail in a run from instruction {@code position} (an index into {@link Plan#instructions()})
     * without stopping it from starting: in a replay, each reachable call the cassette cannot answer
     * (a tool it has no interaction for, a {@code condition_prompt} when it has no condition answers).
     * A run adds them to {@link RunResult#warnings()}.
     */
    public List<Diagnostic> warnings(Plan plan, RunMode mode, int position) {
        return mode instanceof RunMode.Replay replay
                ? Preflight.uncovered(
                        plan,
                        position,
                        union(replay.cassette().tools(), replay.live()),
                        replay.cassette().hasConditions())
                : List.of();
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new HashSet<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * {@link #problems(Plan, RunMode)}, the calls of tools the run's own policy ({@code options}) denies, and what breaks
     * this VM's reach policy ({@link PlanVmBuilder#reachPolicy}) on some path of the plan.
     */
    public List<String> problems(Plan plan, RunMode mode, RunOptions options) {
        return problems(plan, mode, options, true);
    }

    /**
     * @param reach whether to check the reach policy: not for a child run, whose plan its parent's check expanded with
     *              the parent's approvals around it
     */
    private List<String> problems(Plan plan, RunMode mode, RunOptions options, boolean reach) {
        List<String> problems = new ArrayList<>(problems(plan, mode));
        if (reach && !reachPolicy.isEmpty()) { // the reach policy: dev.planvm.instructions.reach, facts from this VM
            reach(plan, mode, options).violations().forEach(v -> problems.add(v.message()));
        }
        ToolPolicy own = options.policy();
        if (!own.allowsEverything()) {
            Set<String> live = mode instanceof RunMode.Replay replay ? replay.live() : Set.of();
            boolean offline = mode instanceof RunMode.Replay || mode instanceof RunMode.DryRun;
            for (dev.planvm.instructions.Instruction instruction : plan.instructions()) {
                if (instruction instanceof dev.planvm.instructions.Calling calling) {
                    String canonical =
                            preflight.canonicalName(calling.tool(), offline && !live.contains(calling.tool()));
                    own.refusal(canonical, tools.canonicalNames())
                            .ifPresent(refusal -> problems.add("seq_no " + calling.seqNo() + ": "
                                    + refusal.replace("the tool policy", "this run's tool policy")));
                }
            }
        }
        return problems;
    }

    /**
     * A session in {@code mode}: one call chain and one token budget for several runs and the calls
     * made beside them (an agent's planning, its runs and re-plans). See {@link RunSession}.
     */
    public RunSession session(RunMode mode) {
        return session(mode, new TokenBudget(maxTokens));
    }

    /** A session in {@code mode} that spends from {@code budget} (a recording child run's: its parent's). */
    private RunSession session(RunMode mode, TokenBudget budget) {
        Objects.requireNonNull(mode, "mode");
        CallInterceptor modeLink = ModeLinks.of(mode, redactor, sleeper); // one per session: a cassette is served once
        Function<CallChains.RunLinks, CallChain> chains = links -> CallChains.standard(chainParts, modeLink, links);
        // a plan-tool call is a child run of the run that makes it (PlanToolCalls, behind the run's guards): no
        // call of one starts while a plan streams, and no early answer stands in for one
        Set<String> childRunTools = planTools.keySet();
        EarlyAnswers answers = new EarlyAnswers(tool -> childRunTools.contains(tools.knownCanonicalName(tool)));
        CallChain early = chains.apply(new CallChains.RunLinks(budget, List.of(), List.of()))
                .withoutListeners();
        boolean answered = mode instanceof RunMode.Replay || mode instanceof RunMode.DryRun;
        return new RunSession(
                mode,
                budget,
                chains,
                answers,
                inputs -> new StreamedStarts(
                        handlers,
                        new EarlyStartRule(
                                tools,
                                chainParts.policy(),
                                answered ? ApprovalRules.NONE : approveTools,
                                answered,
                                childRunTools),
                        runLimits,
                        early,
                        answers,
                        schedulers.get(),
                        maxInFlight,
                        inputs));
    }

    /**
     * The clock a run with these options in this mode gets, fixed for the whole run: the options' own,
     * else the one a replayed cassette recorded, else this VM's clock source now
     * ({@link PlanVmBuilder#clock}). Durable runs store it, so a resume and a rerun reuse it.
     */
    public RunClock clockFor(RunOptions options, RunMode mode) {
        if (options.clock() != null) {
            return options.clock();
        }
        if (mode instanceof RunMode.Replay replay && replay.cassette().clock() != null) {
            Cassette.RecordedClock recorded = replay.cassette().clock();
            return new RunClock(recorded.now(), recorded.zone());
        }
        return RunClock.of(clockSource);
    }

    /** Runs a plan live from its start with these inputs. See {@link #run(RunRequest)}. */
    public RunResult run(Plan plan, Map<String, JsonNode> inputs) {
        return run(plan, inputs, RunMode.live());
    }

    /** Runs a plan from its start with these inputs, in {@code mode}. See {@link #run(RunRequest)}. */
    public RunResult run(Plan plan, Map<String, JsonNode> inputs, RunMode mode) {
        return run(RunRequest.of(plan, new LinkedHashMap<>(inputs), mode));
    }

    /**
     * Checks a run before anything runs, once: what stops this VM from running the request's plan in its mode
     * with its options ({@link #problems(Plan, RunMode, RunOptions)}), what may fail in it ({@link #warnings}), and
     * the run's clock ({@link #clockFor}, fixed in the returned request's options). {@link #run(RunRequest)} does
     * not check the returned request again; a durable run checks here before it stores anything.
     *
     * @throws PlanRejectedException when the plan cannot run here
     */
    public RunRequest check(RunRequest request) {
        return check(request, true);
    }

    /** {@link #check(RunRequest)}; {@code reach}: whether to check the reach policy (not for a child run). */
    private RunRequest check(RunRequest request, boolean reach) {
        Objects.requireNonNull(request, "request");
        Plan plan = Objects.requireNonNull(request.plan(), "the request has no plan");
        RunMode mode = request.mode();
        if (request.checked() != null && request.checked().covers(request)) {
            return request;
        }
        List<String> problems = problems(plan, mode, request.options(), reach);
        if (!problems.isEmpty()) {
            throw new PlanRejectedException(problems);
        }
        List<String> warnings = warnings(plan, mode, request.start().position()).stream()
                .map(w -> "seq_no " + w.seqNo() + ": " + w.message())
                .toList();
        RunOptions clocked = request.options().clock() != null
                ? request.options()
                : request.options().withClock(clockFor(request.options(), mode));
        return request.toBuilder()
                .options(clocked)
                .checked(new RunRequest.Checked(
                        plan, mode, clocked, request.start().position(), warnings))
                .build();
    }

    /**
     * The one way every run goes: runs the request's plan from its checkpoint (a fresh start, or where a stored
     * run's last committed step left it) to its end, in its session (or one of its own in its mode), with its
     * options, listeners (after the VM's), reviewer, control and journal. A request that {@link #check} did not
     * return is checked first. A failure while running is a failed result, never an exception; a call waiting
     * for approval ends the run {@link dev.planvm.vm.run.RunStatus#WAITING}.
     *
     * @throws PlanRejectedException before anything runs, when the plan cannot run here
     */
    public RunResult run(RunRequest request) {
        return run(request, null);
    }

    /**
     * {@link #run(RunRequest)} as a run of {@code tree} (a plan-tool call's child run: it shares its parent's
     * call slots and step count), or as the root of a tree of its own when {@code null}.
     */
    private RunResult run(RunRequest request, RunTree parentTree) {
        RunRequest checked = check(request);
        Plan plan = checked.plan();
        Checkpoint start = checked.start();
        RunSession session = checked.session() != null ? checked.session() : session(checked.mode());
        RunMode mode = checked.mode();
        RunOptions options = checked.options();
        RunJournal journal = checked.journal();
        List<String> warnings = checked.checked().warnings();
        RunClock clock = options.clock();

        if (mode instanceof RunMode.Record record) {
            record.recording().clock(new Cassette.RecordedClock(clock.now(), clock.zone()));
        }
        ApprovalRules approvals = approveTools.and(options.approvalRules());
        boolean callsForReal = mode instanceof RunMode.Live || mode instanceof RunMode.Record;
        List<CallInterceptor> guards = new ArrayList<>();
        if (!options.policy().allowsEverything()) {
            guards.add(CallChains.permission(options.policy(), tools.canonicalNames()));
        }
        Approvals decider =
                checked.approvals() != null ? checked.approvals() : reviewer != null ? reviewer : Approvals.NONE;
        if (callsForReal && !approvals.isEmpty()) {
            guards.add(CallChains.approval(approvals, decider, tools.canonicalNames()));
        }
        List<CallInterceptor> afterMode = callsPersonTools(plan)
                ? List.of(CallChains.person(personTools, decider, clockSource, sleeper))
                : List.of();
        CallScheduler scheduler = schedulers.get();
        int steps = options.maxSteps() == null ? maxSteps : Math.min(maxSteps, options.maxSteps());
        RunTree tree = parentTree != null ? parentTree : new RunTree(maxInFlight, steps);
        TraceRecorder trace =
                tracing ? new TraceRecorder(mode.label(), redactor, runLimits, scheduler::now, clock) : null;
        RunSpans spans = tracer == null
                ? null
                : new RunSpans(
                        tracer, LLM_TOOL, plan, journal == null ? null : journal.runId(), mode.label(), redactor);
        List<RunListener> all = new ArrayList<>();
        if (spans != null) {
            all.add(spans); // first: the run's span (and a call's) is open before the others hear of it
        }
        if (trace != null) {
            all.add(trace);
        }
        all.addAll(listeners);
        all.addAll(checked.listeners());
        Listeners told = all.isEmpty() ? Listeners.NONE : new Listeners(all); // the one fan-out of this run
        if (!planTools.isEmpty()) { // last guard: a plan-tool call that passed them starts a child run of this one
            guards.add(new PlanToolCalls(
                    planTools,
                    parentRun(session, tree),
                    options,
                    checked.approvals(),
                    journal,
                    told,
                    clock,
                    checked.control()));
        }
        CallChain chain = session.chain(guards, afterMode, told.isEmpty() ? List.of() : List.of(told), tree);
        CallSlots.Member slots = sequential ? null : tree.slots().join();
        Speculator speculator = sequential
                ? null
                : new Speculator(
                        plan,
                        dataflows.of(
                                plan,
                                mode instanceof RunMode.Replay || mode instanceof RunMode.DryRun,
                                callsForReal ? approvals : ApprovalRules.NONE,
                                planTools.keySet()),
                        handlers,
                        runLimits,
                        chain,
                        scheduler,
                        slots,
                        spans == null ? seqNo -> {} : spans::discarded);
        RunResult result;
        try {
            result = new Interpreter(new RunSetup(
                            plan,
                            handlers,
                            chain,
                            told,
                            journal,
                            steps,
                            strict,
                            runLimits,
                            redactor,
                            mode instanceof RunMode.DryRun,
                            speculator,
                            checked.control(),
                            trace != null || mode instanceof RunMode.Record,
                            scheduler,
                            clock,
                            options.keepGoing(),
                            tree,
                            slots))
                    .run(start);
        } finally {
            if (slots != null) {
                slots.leave();
            }
        }
        RunResult warned = warnings.isEmpty() ? result : result.withWarningsFirst(warnings);
        return trace == null ? warned : warned.withTrace(trace.document());
    }

    /**
     * A run in {@code session} as its plan-tool calls see it: children run in the same session (one token
     * budget) and in the same {@code tree} (one pool of call slots, one step count).
     */
    private ParentRun parentRun(RunSession session, RunTree tree) {
        RunMode mode = session.mode();
        return new ParentRun() {
            @Override
            public RunResult run(
                    Plan plan,
                    Checkpoint start,
                    RunOptions options,
                    Approvals approvals,
                    RunJournal journal,
                    dev.planvm.vm.run.RunControl control,
                    java.util.function.Consumer<List<Interaction>> recorded) {
                // recording, the child records into a recording of its own, nested under the call in the cassette
                Recording own = mode instanceof RunMode.Record record
                        ? (record.recording().keepsFailures() ? Recording.keepingFailures() : new Recording())
                        : null;
                RunResult result = PlanVm.this.run(
                        check(
                                RunRequest.builder(plan)
                                        .start(start)
                                        .control(control)
                                        .session(
                                                own == null
                                                        ? session
                                                        : session(new RunMode.Record(own), session.budget()))
                                        .options(options)
                                        .approvals(approvals)
                                        .journal(journal)
                                        .build(),
                                false),
                        tree);
                if (own != null) {
                    recorded.accept(own.cassette().interactions());
                }
                return result;
            }

            @Override
            public List<String> problems(Plan plan, RunOptions options) {
                return PlanVm.this.problems(plan, mode, options, false);
            }

            @Override
            public dev.planvm.vm.plantools.ChildRunner elsewhere() {
                return childRunner;
            }

            @Override
            public String stepsSpent() {
                return tree.stepsSpent() ? tree.stepLimitMessage() : null;
            }

            @Override
            public String modeLabel() {
                return mode.label();
            }

            @Override
            public boolean dryRun() {
                return mode instanceof RunMode.DryRun;
            }

            @Override
            public boolean answersWhole(String tool) {
                return mode instanceof RunMode.Replay replay
                        && replay.cassette().flat().stream()
                                .anyMatch(i -> i instanceof Interaction.ToolInteraction recorded
                                        && recorded.tool().equals(tool)
                                        && !recorded.childRun());
            }

            @Override
            public void recorded(
                    String tool,
                    JsonNode params,
                    JsonNode output,
                    long durationMs,
                    String error,
                    List<Interaction> children) {
                if (mode instanceof RunMode.Record record
                        && (error == null || record.recording().keepsFailures())) {
                    record.recording()
                            .add(new Interaction.ToolInteraction(
                                    tool,
                                    redactor.redact(params),
                                    error == null && output != null ? redactor.redact(output) : NullNode.getInstance(),
                                    durationMs,
                                    List.of(),
                                    null,
                                    error == null ? null : redactor.redact(error),
                                    null,
                                    true,
                                    children));
                }
            }

            @Override
            public void recordedWaiting(
                    String tool, JsonNode params, long durationMs, String reason, List<Interaction> children) {
                if (mode instanceof RunMode.Record record) {
                    record.recording()
                            .add(new Interaction.ToolInteraction(
                                    tool,
                                    redactor.redact(params),
                                    NullNode.getInstance(),
                                    durationMs,
                                    List.of(),
                                    null,
                                    redactor.redact(reason),
                                    null,
                                    true,
                                    children,
                                    true));
                }
            }
        };
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
}
