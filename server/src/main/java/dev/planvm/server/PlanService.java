package dev.planvm.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanSchemas;
import dev.planvm.server.report.ChildReport;
import dev.planvm.server.report.ReportInput;
import dev.planvm.server.report.Reports;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRunException;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.ElementRows;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.RunSummary;
import dev.planvm.vm.durable.StoreException;
import dev.planvm.vm.durable.StoredInput;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private static final Logger log = LoggerFactory.getLogger(PlanService.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** The most element rows per step a run's document gives ({@code max_elements}): all a map can have. */
    public static final int MAX_ELEMENT_ROWS = dev.planvm.instructions.ForEach.MAX_ELEMENTS;

    private static final Set<String> INPUT_FIELDS = Set.of("call_id", "value");
    private static final Set<String> VALIDATE_FIELDS = Set.of(
            "plan", "name", "dialect", "inputs", "allow_tools", "deny_tools", "approve_tools", "max_steps", "reach");

    private final PlanVm vm;
    private final RunStore store;
    private final ServiceSettings settings;
    private final DurableRuns runs;
    private final PendingCalls waiting;
    private final Plans plans;
    private final Metrics metrics = new Metrics();
    private final RunSessions sessions;
    private final RunTimers timers;

    /** A run handed to the service: its id, and the end of its session. */
    public record Submitted(String id, CompletableFuture<DurableRun> done) {}

    public PlanService(PlanVm vm, RunStore store, ServiceSettings settings) {
        this.vm = Objects.requireNonNull(vm, "vm");
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.runs = new DurableRuns(vm, store, true); // a sleep with time left waits for a timer, holding nothing
        this.waiting = new PendingCalls(runs, store, this::state);
        this.plans = new Plans(vm, settings.planCacheEntries());
        this.sessions = new RunSessions(settings, metrics, vm.redactor());
        this.timers = new RunTimers(vm.clock(), this::wake);
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
        return submit(
                1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(runs.create(own.apply(run)), 0), (id, own) -> runs.run(id)),
                false);
    }

    /** Continues an interrupted or failed run ({@code POST /v1/runs/{id}/resume}). */
    public Submitted resume(String id, ContinueRequest request) {
        StoredRun run = find(id);
        return submit(
                run.sessions() + 1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(run.id(), run.steps().size()),
                        (runId, own) ->
                                runs.resume(runId, own.apply(session(request.mode())), Map.of(), request.force())),
                false);
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
        if (request.callIds().isEmpty()) {
            throw Fields.bad(
                    "/call_id",
                    "an approval names the call it approves: {\"call_id\": ..., \"approved\": true | false}, "
                            + "with the pending.call_id of GET /v1/runs/" + id);
        }
        DurableRuns.Tree tree = tree(find(id)); // a parent waiting for its child: the child's call, the parent runs
        guard(() -> waiting.approvals(tree.waiting(), request.callIds()));
        StoredRun run = tree.root();
        return submit(
                run.sessions() + 1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(run.id(), run.steps().size()), (runId, own) -> {
                            // still those calls, now that the session runs
                            guard(() -> waiting.approvals(tree(find(runId)).waiting(), request.callIds()));
                            return runs.approve(
                                    runId,
                                    request.callIds(),
                                    request.approved(),
                                    request.reason(),
                                    own.apply(session(request.mode())),
                                    Map.of());
                        }),
                false);
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
        Fields fields = Fields.of(body == null ? JSON.objectNode() : body, INPUT_FIELDS);
        String callId = fields.text("call_id", null);
        if (callId == null || callId.isBlank() || callId.length() > 64) {
            throw Fields.bad(
                    "/call_id",
                    "an answer names the input it answers: {\"call_id\": ..., \"value\": ...}, with the "
                            + "pending.call_id of GET /v1/runs/" + id);
        }
        JsonNode value = fields.node("value");
        if (value == null) {
            throw Fields.bad("/value", "the answer is missing: {\"call_id\": ..., \"value\": ...}");
        }
        DurableRuns.Tree tree = tree(find(id)); // a parent waiting for its child: the child's input, the parent runs
        StoredInput pending = guard(() -> waiting.input(tree.waiting(), callId));
        StoredRun run = tree.root();
        runs.refusal(pending, value)
                .ifPresent(
                        reason -> { // the durable runs' check: schema, choices, limits
                            throw new ServiceException(
                                    ServiceException.Kind.REJECTED, "run " + id + " keeps waiting: " + reason);
                        });
        return submit(
                run.sessions() + 1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(run.id(), run.steps().size()), (runId, own) -> {
                            // still that input, now that the session runs
                            guard(() -> waiting.input(tree(find(runId)).waiting(), callId));
                            return runs.answer(runId, callId, value, own.apply(session(RunMode.live())), Map.of());
                        }),
                false);
    }

    /** Where a stored run's wait is ({@link DurableRuns#tree}). */
    private DurableRuns.Tree tree(StoredRun run) {
        try {
            return runs.tree(run);
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** A new run from a stored run's state before {@code from_seq}, with edited inputs ({@code POST /v1/runs/{id}/rerun}). */
    public Submitted rerun(String id, ContinueRequest request) {
        if (request.fromSeq() == null) {
            throw Fields.bad("/from_seq", "a rerun needs from_seq: the seq_no to run from");
        }
        StoredRun run = find(id);
        return submit(
                1,
                new RunSessions.Work(
                        own -> {
                            String newId = runs.createRerun(
                                    run.id(),
                                    request.fromSeq(),
                                    request.inputs(),
                                    null,
                                    own.apply(session(request.mode())));
                            return new RunSessions.Created(
                                    newId,
                                    guard(() -> store.find(newId))
                                            .map(r -> r.steps().size())
                                            .orElse(0));
                        },
                        (newId, own) -> runs.run(newId)),
                false);
    }

    /**
     * Cancels a run: one this server runs stops before its next step, failed; a waiting run fails at once.
     *
     * @throws ServiceException {@code no_such_run}, or {@code conflict} for a run that neither runs here nor waits
     */
    public ObjectNode cancel(String id, String reason) {
        StoredRun run = find(id);
        String why = reason == null || reason.isBlank() ? "cancelled through the API" : reason;
        if (sessions.cancel(run.id(), why)) {
            return JSON.objectNode()
                    .put("id", run.id())
                    .put("state", "cancelling")
                    .put("message", "the run stops before its next step");
        }
        if (run.status() == RunStatus.WAITING && guard(() -> runs.cancelWaiting(run.id(), why))) {
            timers.cancel(run.id());
            return JSON.objectNode()
                    .put("id", run.id())
                    .put("state", "failed")
                    .put("message", "the waiting run was cancelled");
        }
        throw new ServiceException(
                ServiceException.Kind.CONFLICT,
                "run " + run.id() + " is " + state(run)
                        + " and does not run in this server: there is nothing to cancel");
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
            if (outcome.path("pending").isObject()) { // the call it waits for, with the id an approval names
                guard(() -> store.find(submitted.id()))
                        .filter(run -> run.id().equals(submitted.id()))
                        .map(run -> guard(() -> waiting.first(run)))
                        .filter(p -> p.has("child_run")
                                || p.path("seq_no").asInt()
                                        == outcome.at("/pending/seq_no").asInt())
                        .ifPresent(p -> outcome.set("pending", p));
            }
            return outcome;
        } catch (TimeoutException e) {
            return RunDocuments.accepted(submitted.id());
        } catch (ExecutionException e) {
            throw failure(e.getCause());
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
        if (maxElements < 0 || maxElements > MAX_ELEMENT_ROWS) {
            throw new ServiceException(
                    ServiceException.Kind.BAD_REQUEST,
                    "max_elements must be 0 to " + MAX_ELEMENT_ROWS + ", not " + maxElements);
        }
        StoredRun run = find(id);
        ObjectNode document = RunDocuments.full(
                run, state(run), guard(() -> store.caller(run.id())), guard(() -> store.children(run.id())));
        document.set("pending", guard(() -> waiting.first(run)));
        document.set("pending_calls", guard(() -> waiting.all(run, document, maxElements)));
        ElementRows.add(
                document, (ArrayNode) document.get("steps"), guard(() -> store.elements(run.id())), maxElements);
        return document;
    }

    /** A stored run, for the HTML report. */
    public StoredRun storedRun(String id) {
        return find(id);
    }

    /**
     * What the stored run's plan could do here ({@code planvm-reach/1}), for its report beside what it did; with nothing
     * set up to learn about tools. {@code null} when its plan no longer loads or cannot be analysed.
     */
    private JsonNode reach(StoredRun run) {
        try {
            var loaded = vm.loader().load(run.plan(), run.planSource());
            return loaded.valid()
                    ? vm.reach(loaded.plan(), RunMode.dryRun(false), run.options())
                            .toJson()
                    : null;
        } catch (RuntimeException e) {
            log.debug("no reach for the report of run {}: {}", run.id(), e.toString());
            return null;
        }
    }

    /**
     * What the run browser draws of a run ({@code GET /v1/runs/{id}/report}): its report model ({@link Reports#model}), and under
     * {@code run} its {@code id}, {@code state}, {@code mode}, {@code parent_run}, {@code pending} (with the
     * {@code call_id} an approval names), {@code links}, and its plan-tool lineage: {@code parent_run_id},
     * {@code parent_seq_no} and {@code children} as in {@code GET /v1/runs/{id}}.
     */
    public ObjectNode report(String id) {
        StoredRun run = find(id);
        List<ChildReport> children = new ArrayList<>();
        for (RunStore.ChildRun child : guard(() -> store.children(run.id()))) {
            children.add(new ChildReport(child.summary().id(), child.seqNo(), null));
        }
        ObjectNode model = Reports.model(Reports.of(run, lineage(run)).withReach(reach(run)), children);
        ((ObjectNode) model.path("summary")).put("status", state(run));
        ObjectNode about = model.putObject("run")
                .put("id", run.id())
                .put("state", state(run))
                .put("mode", run.mode())
                .put("parent_run", run.parentRun());
        about.set("pending", guard(() -> waiting.first(run)));
        about.set("pending_calls", guard(() -> waiting.all(run, about, ElementRows.DEFAULT_MAX)));
        about.set("links", RunDocuments.links(run.id()));
        var caller = guard(() -> store.caller(run.id()));
        about.put("parent_run_id", caller.map(RunStore.Caller::runId).orElse(null));
        about.put("parent_seq_no", caller.map(RunStore.Caller::seqNo).orElse(null));
        ArrayNode listed = about.putArray("children");
        for (RunStore.ChildRun child : guard(() -> store.children(run.id()))) {
            listed.addObject()
                    .put("id", child.summary().id())
                    .put("seq_no", child.seqNo())
                    .put("state", child.summary().state())
                    .put("plan", child.summary().planSource());
        }
        return model;
    }

    /**
     * The child runs {@code run}'s plan-tool calls started, in the order they started, with their reports (the
     * first {@value #MAX_CHILD_REPORTS}), for the standalone HTML report to embed.
     */
    public List<ChildReport> childReports(StoredRun run) {
        List<ChildReport> reports = new ArrayList<>();
        for (RunStore.ChildRun child : guard(() -> store.children(run.id()))) {
            ReportInput report = null;
            if (reports.size() < MAX_CHILD_REPORTS) {
                StoredRun stored = guard(() -> store.find(child.summary().id())).orElse(null);
                report = stored == null ? null : Reports.of(stored, List.of(stored));
            }
            reports.add(new ChildReport(child.summary().id(), child.seqNo(), report));
        }
        return reports;
    }

    private static final int MAX_CHILD_REPORTS = 50;

    /** The trace document of a stored run ({@code GET /v1/runs/{id}/trace}): its committed steps, as {@code planvm report} reads it. */
    public ObjectNode trace(String id) {
        return Reports.trace(find(id));
    }

    /** A cassette of the calls a stored run's committed steps made ({@code GET /v1/runs/{id}/cassette}). */
    public ObjectNode cassette(String id) {
        return StoredCassette.of(find(id));
    }

    /** The chain of runs a rerun started from, oldest first, ending with {@code run} (at most 50). */
    public List<StoredRun> lineage(StoredRun run) {
        return Reports.lineage(run, parent -> guard(() -> store.find(parent)));
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
        String needle = q == null ? "" : q.strip().toLowerCase(Locale.ROOT);
        if (needle.length() > 200) {
            throw Fields.bad("", "q is " + needle.length() + " characters; 200 at most");
        }
        RunStatus status = state == null
                ? null
                : switch (state) {
                    case "running", "interrupted" -> RunStatus.RUNNING;
                    case "waiting", "succeeded", "completed_with_failures", "failed" -> RunStatus.ofLabel(state);
                    default ->
                        throw Fields.bad(
                                "",
                                "state must be running, interrupted, waiting, succeeded, completed_with_failures or"
                                        + " failed, not '" + state + "'");
                };
        int size = Math.max(1, Math.min(limit, 500));
        if (!needle.isEmpty()) {
            return withWaitingFor(RunSearch.page(
                    from -> guard(() -> store.list(RunSearch.BATCH, from, status)),
                    state,
                    needle,
                    size,
                    Math.max(0, offset)));
        }
        List<RunSummary> page = guard(() -> store.list(size, Math.max(0, offset), status));
        ObjectNode answer = JSON.objectNode();
        ArrayNode list = answer.putArray("runs");
        page.stream()
                .filter(r -> state == null || r.state().equals(state))
                .forEach(r -> list.add(RunDocuments.summary(r)));
        answer.put("limit", size).put("offset", Math.max(0, offset));
        if (page.size() == size) {
            answer.put("next_offset", Math.max(0, offset) + size);
        } else {
            answer.putNull("next_offset");
        }
        return withWaitingFor(withCaller(answer));
    }

    /** Each run of a page that a plan-tool call started names its parent: {@code "parent_run_id"} (else null). */
    private ObjectNode withCaller(ObjectNode page) {
        for (JsonNode run : page.path("runs")) {
            if (run instanceof ObjectNode item) {
                String id = item.path("id").asText();
                item.put(
                        "parent_run_id",
                        guard(() -> store.caller(id))
                                .map(RunStore.Caller::runId)
                                .orElse(null));
            }
        }
        return page;
    }

    /** Each waiting run of a page says what it waits for: {@code "waiting_for": "approval" | "input" | "sleep"}. */
    private ObjectNode withWaitingFor(ObjectNode page) {
        for (JsonNode run : page.path("runs")) {
            if (run instanceof ObjectNode item
                    && "waiting".equals(item.path("state").asText())) {
                String id = item.path("id").asText();
                StoredRun waiting = guard(() -> store.find(id))
                        .map(found -> tree(found).waiting())
                        .orElse(null);
                item.put(
                        "waiting_for",
                        waiting == null
                                ? "approval"
                                : guard(() -> store.pendingInput(waiting.id())).isPresent()
                                        ? "input"
                                        : guard(() -> store.wakeAt(waiting.id()))
                                                        .isPresent()
                                                ? "sleep"
                                                : "approval");
            }
        }
        return page;
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
        StoredRun run = find(id);
        return new EventFeed(sessions.logOf(run.id()).orElse(null), () -> find(run.id()));
    }

    /**
     * Resumes, in the background, the interrupted live runs this service's origin started (their process
     * died, or a shutdown interrupted them); returns how many it found. Replays and dry runs stay
     * interrupted (their cassette or setting is not stored): resume them through the API.
     */
    public int resumeInterrupted() {
        List<String> ids = new java.util.ArrayList<>();
        for (int offset = 0; ; offset += 200) {
            int from = offset;
            List<RunSummary> page = guard(() -> store.list(200, from, RunStatus.RUNNING));
            page.stream().filter(r -> !r.live()).forEach(r -> ids.add(r.id()));
            if (page.size() < 200) {
                break;
            }
        }
        List<String> found = new java.util.ArrayList<>();
        for (String id : ids) {
            StoredRun run = guard(() -> store.find(id)).orElse(null);
            if (run != null
                    && settings.origin().equals(run.options().origin())
                    && run.mode().equals("live")) {
                found.add(run.id());
            }
        }
        if (found.isEmpty()) {
            return 0;
        }
        Thread resumer = new Thread(
                () -> { // one at a time: each waits for a free slot
                    for (String id : found) {
                        try {
                            StoredRun run = find(id);
                            submit(
                                    run.sessions() + 1,
                                    new RunSessions.Work(
                                            own -> new RunSessions.Created(
                                                    run.id(), run.steps().size()),
                                            (runId, own) -> runs.resume(
                                                    runId, own.apply(session(RunMode.live())), Map.of(), false)),
                                    true);
                            log.info("resuming interrupted run {}", run.id());
                        } catch (RuntimeException e) {
                            log.warn("cannot resume interrupted run {}: {}", id, e.getMessage());
                        }
                    }
                },
                "planvm-resume");
        resumer.setDaemon(true);
        resumer.start();
        return found.size();
    }

    /**
     * Sets the timer of every run that sleeps, waiting for it, in the store and that this service's origin started
     * (a server that stopped left them so): one already due runs at once, in the background. Returns how many.
     * Runs started elsewhere ({@code planvm run}, another server) are left to their own process.
     */
    public int wakeSleeping() {
        int count = 0;
        for (RunStore.Sleeping sleeping : guard(store::sleeping)) {
            try {
                StoredRun run = guard(() -> store.find(sleeping.id())).orElse(null);
                StoredRun root = run == null ? null : tree(run).root();
                if (root != null
                        && settings.origin().equals(root.options().origin())
                        && root.mode().equals("live")) {
                    timers.schedule(sleeping.id(), sleeping.wakeAt());
                    count++;
                }
            } catch (RuntimeException e) {
                log.warn("cannot set the timer of sleeping run {}: {}", sleeping.id(), e.getMessage());
            }
        }
        return count;
    }

    /**
     * After a session: a run that stopped waiting at a sleep — its own, or a child run's (a plan tool's) — gets the
     * timer that wakes it.
     */
    private void afterSession(String id) {
        try {
            StoredRun run = store.find(id).filter(r -> r.id().equals(id)).orElse(null);
            if (run == null || run.status() != RunStatus.WAITING) {
                return;
            }
            StoredRun waiting = runs.tree(run).waiting();
            store.wakeAt(waiting.id()).ifPresent(at -> timers.schedule(waiting.id(), at));
        } catch (RuntimeException e) {
            log.warn("cannot set the timer of sleeping run {}: {}", id, e.getMessage());
        }
    }

    /**
     * A timer is due: continues the sleeping run {@code id} (the top of its waiting tree: a sleeping child's
     * parent continues it) in a session of its own. False when no slot is free now (the timer tries again).
     */
    private boolean wake(String id) {
        StoredRun sleeping = store.find(id).filter(r -> r.id().equals(id)).orElse(null);
        if (sleeping == null || store.wakeAt(id).isEmpty()) {
            return true; // cancelled, or continued otherwise
        }
        StoredRun root = runs.tree(sleeping).root();
        if (sessions.isActive(root.id())) {
            return false; // its session is ending (or another continues it): look again shortly
        }
        try {
            submit(
                    root.sessions() + 1,
                    new RunSessions.Work(
                            own -> new RunSessions.Created(
                                    root.id(), root.steps().size()),
                            (runId, own) -> runs.resume(runId, own.apply(session(RunMode.live())), Map.of(), false)),
                    false);
            return true;
        } catch (ServiceException e) {
            if (e.kind() == ServiceException.Kind.BUSY) {
                return false;
            }
            if (e.kind() != ServiceException.Kind.SHUTTING_DOWN) {
                log.warn("cannot wake sleeping run {}: {}", id, e.getMessage());
            }
            return true;
        }
    }

    /**
     * Stops accepting runs, interrupts the active ones at their next commit point and waits up to
     * {@code grace}; returns the ids of runs that were still in a step (released in the store: interrupted).
     * Sleeping runs stay waiting, their wake time stored: a server that starts again sets their timers
     * ({@link #wakeSleeping}).
     */
    public List<String> shutdown(Duration grace) {
        timers.close();
        return sessions.shutdown(grace, store);
    }

    /** Stops the service's threads; the VM and the store belong to the caller. */
    @Override
    public void close() {
        timers.close();
        sessions.shutdown(Duration.ZERO, store);
    }

    /** What a session of a stored run brings: its mode (its listeners and control come from {@link RunSessions}). */
    private static dev.planvm.vm.RunRequest session(RunMode mode) {
        return dev.planvm.vm.RunRequest.builder().mode(mode).build();
    }

    private Submitted submit(int session, RunSessions.Work work, boolean blockForSlot) {
        try {
            RunSessions.Submitted submitted = sessions.submit(session, work, blockForSlot);
            submitted.done().whenComplete((run, failure) -> afterSession(submitted.id()));
            return new Submitted(submitted.id(), submitted.done());
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }

    /** The service's word for a failure of the durable-runs API. */
    private static ServiceException failure(Throwable e) {
        if (e instanceof ServiceException service) {
            return service;
        }
        if (e instanceof PlanRejectedException rejected) {
            ObjectNode details = JSON.objectNode();
            rejected.problems().forEach(details.putArray("problems")::add);
            return new ServiceException(
                    ServiceException.Kind.REJECTED,
                    "the plan cannot run here: "
                            + Plans.count(rejected.problems().size(), "problem") + ", the first: "
                            + rejected.problems().get(0),
                    details);
        }
        if (e instanceof DurableRunException || e instanceof StoreException) {
            return new ServiceException(ServiceException.Kind.of(FailureKind.of(e)), e.getMessage());
        }
        log.warn("unexpected failure", e);
        return new ServiceException(
                ServiceException.Kind.INTERNAL,
                "unexpected " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }

    /**
     * The stored run whose id is exactly {@code id}. Never a prefix: the store finds a run by the start of its
     * id (for the command line), which over the network would let a one-character guess reach a run.
     */
    private StoredRun find(String id) {
        ServiceException none = new ServiceException(ServiceException.Kind.NO_SUCH_RUN, "no run '" + id + "'");
        if (id == null
                || id.isBlank()
                || id.length() > 64
                || guard(() -> store.summary(id)).isEmpty()) {
            throw none;
        }
        StoredRun run;
        try {
            run = DurableRuns.find(store, id);
        } catch (RuntimeException e) {
            throw failure(e);
        }
        if (!run.id().equals(id)) {
            throw none;
        }
        return run;
    }

    /**
     * The state of {@code run} as read: a run read as running is {@code running} or {@code interrupted}
     * (whether a live process owns it). A run that finished after it was read is still {@code running}
     * here, so the state never disagrees with the rest of the document (a finished state with no result).
     */
    private String state(StoredRun run) {
        if (run.status() != RunStatus.RUNNING) {
            return run.status().label();
        }
        return guard(() -> store.summary(run.id()))
                .map(now -> now.status() == RunStatus.RUNNING ? now.state() : "running")
                .orElse("interrupted");
    }

    private static <T> T guard(Supplier<T> read) {
        try {
            return read.get();
        } catch (RuntimeException e) {
            throw failure(e);
        }
    }
}
