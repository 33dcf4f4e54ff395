package dev.planvm.server;

import static dev.planvm.server.RunLookup.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanSchemas;
import dev.planvm.server.report.ChildReport;
import dev.planvm.server.report.Reports;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.ElementRows;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.run.RunOptions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * planvm as a service: what the HTTP server ({@code planvm serve}) and the MCP server ({@code planvm mcp})
 * both do, over one {@link PlanVm} and one {@link RunStore}. Every run is a durable run; a request's
 * options narrow the VM's settings; runs execute on threads of their own, a bounded number at once; each
 * run's events can be followed as they happen ({@link #events}). A run that sleeps, or waits for a person, holds
 * no thread and no slot: it stops {@code waiting}, and a sleeping one is continued by a timer when it is due
 * ({@link RunTimers}). Failures are {@link ServiceException}s:
 * one located sentence, a stable code, details. Thread-safe.
 *
 * <pre>{@code
 * PlanService service = new PlanService(vm, RunStore.open(path, vm.redactor()), ServiceSettings.DEFAULT);
 * PlanService.Submitted run = service.start(RunRequest.fromJson(body));
 * ObjectNode outcome = service.await(run, Duration.ofSeconds(30), false);
 * }</pre>
 */
public final class PlanService implements AutoCloseable {

    /** The most element rows per step a run's document gives ({@code max_elements}): all a map can have. */
    public static final int MAX_ELEMENT_ROWS = dev.planvm.instructions.ForEach.MAX_ELEMENTS;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> VALIDATE_FIELDS = Set.of(
            "plan", "name", "dialect", "inputs", "allow_tools", "deny_tools", "approve_tools", "max_steps", "reach");

    private final PlanVm vm;
    private final RunStore store;
    private final ServiceSettings settings;
    private final DurableRuns runs;
    private final Plans plans;
    private final Metrics metrics = new Metrics();
    private final RunSessions sessions;
    private final RunLookup lookup;
    private final Submissions submissions;
    private final RunDecisions decisions;
    private final RunViews views;

    /** A run handed to the service: its id, and the end of its session. */
    public record Submitted(String id, CompletableFuture<DurableRun> done) {}

    public PlanService(PlanVm vm, RunStore store, ServiceSettings settings) {
        this.vm = Objects.requireNonNull(vm, "vm");
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.runs = new DurableRuns(vm, store, true); // a sleep with time left waits for a timer, holding nothing
        this.lookup = new RunLookup(store, runs);
        PendingCalls waiting = new PendingCalls(runs, store, lookup::state);
        this.plans = new Plans(vm, settings.planCacheEntries());
        this.sessions = new RunSessions(settings, metrics, vm.redactor());
        this.submissions = new Submissions(store, runs, sessions, lookup, settings, vm.clock());
        this.decisions = new RunDecisions(store, runs, waiting, sessions, submissions, lookup);
        this.views = new RunViews(vm, store, waiting, lookup);
    }

    public PlanVm vm() {
        return vm;
    }

    public Metrics metrics() {
        return metrics;
    }

    /** The figures of {@code GET /metrics} (Prometheus text). */
    public String metricsText() {
        return metrics.text(guard(store::countByStatus), vm.toolLimits());
    }

    /**
     * Validates the plan of {@code {"plan", "name", "dialect", "inputs", "allow_tools", "deny_tools", ...}}
     * without running it ({@code inputs}: the variables a run would be given, which a YAML or JavaScript
     * plan may read; {@code "reach": true} adds what the plan can do, {@code planvm-reach/1}); see
     * {@link Plans#report} for the answer.
     */
    public ObjectNode validate(JsonNode body) {
        Fields fields = Fields.of(body, VALIDATE_FIELDS);
        JsonNode plan = fields.node("plan");
        if (plan == null) {
            throw Fields.bad("/plan", "the plan is missing: give it as a JSON array of instructions (or its text)");
        }
        Dialect dialect = RunRequest.dialect(fields);
        return plans.report(
                plan,
                RunRequest.name(fields, dialect),
                RunRequest.options(fields),
                dialect,
                fields.variables("inputs").keySet(),
                fields.bool("reach", false));
    }

    /**
     * Starts a run of the request's plan (in its dialect) and returns once it is stored (its first step
     * may be running). The run's clock is the one {@link PlanVm#clockFor} gives, with the request's
     * {@code now}/{@code tz} in place of its parts; the store keeps it, so a resume computes the same dates.
     *
     * @throws ServiceException {@code invalid_plan} (with every diagnostic), {@code rejected} (cannot run
     *                          here, every problem), {@code busy}, {@code shutting_down}
     */
    public Submitted start(RunRequest request) {
        LoadResult loaded = plans.valid(
                request.plan(),
                request.name(),
                request.dialect(),
                request.inputs().keySet());
        RunOptions options = request.options().withOrigin(settings.origin());
        RunOptions clocked = request.clock() == null
                ? options
                : options.withClock(request.clock().apply(vm.clockFor(options, request.mode())));
        dev.planvm.vm.RunRequest run = dev.planvm.vm.RunRequest.builder(loaded.plan())
                .inputs(request.inputs())
                .mode(request.mode())
                .options(clocked)
                .build();
        return submissions.submit(
                1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(runs.create(own.apply(run)), 0), (id, own) -> runs.run(id)),
                false);
    }

    /** Continues an interrupted or failed run ({@code POST /v1/runs/{id}/resume}). */
    public Submitted resume(String id, ContinueRequest request) {
        return decisions.resume(id, request);
    }

    /**
     * Approves or denies the call a waiting run waits for, and continues it ({@code POST /v1/runs/{id}/approve}).
     * The request names the call ({@code call_id}, the {@code pending.call_id} the run reports): an approval of
     * any other call — one the run no longer waits for, or a guess — approves nothing. Elements of a {@code for_each}
     * step that wait are calls of their own ({@code pending_calls}): {@code call_ids} lists several to decide alike,
     * the explicit way to approve many at once.
     *
     * @throws ServiceException {@code bad_request} without a call id, {@code conflict} when the run does not wait
     *                          for each call named, {@code no_such_run}
     */
    public Submitted approve(String id, ContinueRequest request) {
        return decisions.approve(id, request);
    }

    /**
     * Answers the {@code human_input} call a waiting run waits for, and continues it ({@code POST
     * /v1/runs/{id}/input}, body {@code {"call_id": ..., "value": ...}}). The answer must fit the input's schema
     * or be one of its choices.
     *
     * @throws ServiceException {@code bad_request} without a call id or value, {@code conflict} when the run does not
     *                          wait for that input, {@code rejected} (422, the reason) for a wrong answer and the run
     *                          keeps waiting, {@code no_such_run}
     */
    public Submitted answer(String id, JsonNode body) {
        return decisions.answer(id, body);
    }

    /** A new run from a stored run's state before {@code from_seq}, with edited inputs ({@code POST /v1/runs/{id}/rerun}). */
    public Submitted rerun(String id, ContinueRequest request) {
        return decisions.rerun(id, request);
    }

    /**
     * Cancels a run: one this server runs stops before its next step, failed; a waiting run fails at once.
     *
     * @throws ServiceException {@code no_such_run}, or {@code conflict} for a run that neither runs here nor waits
     */
    public ObjectNode cancel(String id, String reason) {
        return decisions.cancel(id, reason);
    }

    /**
     * Waits up to {@code timeout} for a submitted run's session to end: its outcome ({@link
     * RunDocuments#outcome}) when it did, else {@code {"id", "state": "running"}}.
     */
    public ObjectNode await(Submitted submitted, Duration timeout, boolean withTrace) {
        try {
            ObjectNode outcome =
                    RunDocuments.outcome(submitted.done().get(timeout.toMillis(), TimeUnit.MILLISECONDS), withTrace);
            guard(() -> store.find(submitted.id())).ifPresent(run -> RunDocuments.withStoredResult(outcome, run));
            return views.withPendingCall(submitted.id(), outcome);
        } catch (TimeoutException e) {
            return RunDocuments.accepted(submitted.id());
        } catch (ExecutionException e) {
            throw RunLookup.failure(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return RunDocuments.accepted(submitted.id());
        }
    }

    /** What a request that does not wait is answered: {@code {"id", "state": "running", "links"}}. */
    public ObjectNode accepted(Submitted submitted) {
        return RunDocuments.accepted(submitted.id());
    }

    /** {@link #run(String, int)} with {@link ElementRows#DEFAULT_MAX} element rows per step. */
    public ObjectNode run(String id) {
        return run(id, ElementRows.DEFAULT_MAX);
    }

    /**
     * A stored run with its trace and a map step's element rows ({@link ElementRows}), at most {@code maxElements}
     * per step ({@code GET /v1/runs/{id}?max_elements=N}, MCP {@code get_run}).
     */
    public ObjectNode run(String id, int maxElements) {
        return views.run(id, maxElements);
    }

    /** A stored run, for the HTML report. */
    public StoredRun storedRun(String id) {
        return lookup.find(id);
    }

    /**
     * What the run browser draws of a run ({@code GET /v1/runs/{id}/report}): its report model ({@link Reports#model}), and under
     * {@code run} its {@code id}, {@code state}, {@code mode}, {@code parent_run}, {@code pending} (with the
     * {@code call_id} an approval names), {@code links}, and its plan-tool lineage: {@code parent_run_id},
     * {@code parent_seq_no} and {@code children} as in {@code GET /v1/runs/{id}}.
     */
    public ObjectNode report(String id) {
        return views.report(id);
    }

    /**
     * The child runs {@code run}'s plan-tool calls started, in the order they started, with their reports (the
     * first 50), for the standalone HTML report to embed.
     */
    public List<ChildReport> childReports(StoredRun run) {
        return views.childReports(run);
    }

    /** The trace document of a stored run ({@code GET /v1/runs/{id}/trace}): its committed steps, as {@code planvm report} reads it. */
    public ObjectNode trace(String id) {
        return Reports.trace(lookup.find(id));
    }

    /** A cassette of the calls a stored run's committed steps made ({@code GET /v1/runs/{id}/cassette}). */
    public ObjectNode cassette(String id) {
        return StoredCassette.of(lookup.find(id));
    }

    /** The chain of runs a rerun started from, oldest first, ending with {@code run} (at most 50). */
    public List<StoredRun> lineage(StoredRun run) {
        return views.lineage(run);
    }

    /**
     * A page of runs, most recent first ({@code GET /v1/runs}): {@code {"runs": [...], "limit", "offset",
     * "next_offset"}}; {@code state} filters by {@code running}, {@code interrupted}, {@code waiting},
     * {@code succeeded} or {@code failed}.
     */
    public ObjectNode list(String state, int limit, int offset) {
        return list(state, null, limit, offset);
    }

    /**
     * {@link #list(String, int, int)} of the runs whose id starts with {@code q} or whose plan's name contains it
     * (ignoring case), among the {@value RunSearch#MAX_SEARCHED} most recent runs; {@code q} null or blank: every run.
     */
    public ObjectNode list(String state, String q, int limit, int offset) {
        return views.list(state, q, limit, offset);
    }

    /** The tools runs can call here and what is unavailable ({@code GET /v1/tools}), as {@code planvm tools --format json}. */
    public ObjectNode tools() {
        ObjectNode document = JSON.objectNode();
        ArrayNode list = document.putArray("tools");
        vm.tools().all().stream()
                .sorted(Comparator.comparing(Tool::name))
                .forEach(tool -> list.addObject()
                        .put("name", tool.name())
                        .put("description", tool.description())
                        .put("side_effects", tool.hasSideEffects())
                        .put(
                                "needs_approval",
                                vm.approveTools()
                                        .matches(
                                                tool.canonicalName(), vm.tools().canonicalNames()))
                        .set("params_schema", tool.paramsSchema()));
        ObjectNode unavailable = document.putObject("unavailable");
        settings.unavailableTools().forEach(unavailable::put);
        vm.approveTools().globs().forEach(document.putArray("approve_tools")::add);
        return document;
    }

    /** The plan JSON Schema (draft 2020-12). */
    public JsonNode schema() {
        return PlanSchemas.planSchema();
    }

    /** The events of run {@code id} for one reader ({@code GET /v1/runs/{id}/events}). */
    public EventFeed events(String id) {
        StoredRun run = lookup.find(id);
        return new EventFeed(sessions.logOf(run.id()).orElse(null), () -> lookup.find(run.id()));
    }

    /**
     * Resumes, in the background, the interrupted live runs this service's origin started (their process
     * died, or a shutdown interrupted them); returns how many it found. Replays and dry runs stay
     * interrupted (their cassette or setting is not stored): resume them through the API.
     */
    public int resumeInterrupted() {
        return submissions.resumeInterrupted();
    }

    /**
     * Sets the timer of every run that sleeps, waiting for it, in the store and that this service's origin started
     * (a server that stopped left them so): one already due runs at once, in the background. Returns how many.
     * Runs started elsewhere ({@code planvm run}, another server) are left to their own process.
     */
    public int wakeSleeping() {
        return submissions.wakeSleeping();
    }

    /**
     * Stops accepting runs, interrupts the active ones at their next commit point and waits up to
     * {@code grace}; returns the ids of runs that were still in a step (released in the store: interrupted).
     * Sleeping runs stay waiting, their wake time stored: a server that starts again sets their timers
     * ({@link #wakeSleeping}).
     */
    public List<String> shutdown(Duration grace) {
        submissions.close();
        return sessions.shutdown(grace, store);
    }

    /** Stops the service's threads; the VM and the store belong to the caller. */
    @Override
    public void close() {
        submissions.close();
        sessions.shutdown(Duration.ZERO, store);
    }
}
