package dev.planvm.server;

import static dev.planvm.server.RunLookup.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.server.report.ChildReport;
import dev.planvm.server.report.ReportInput;
import dev.planvm.server.report.Reports;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.ElementRows;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.RunSummary;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.run.RunStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the service shows of stored runs: a run's document (trace, element rows, the calls it waits for, its
 * plan-tool lineage), the run browser's report model, a page of runs (filtered by state, searched), each read
 * from the store as it is now.
 */
final class RunViews {

    private static final Logger log = LoggerFactory.getLogger(PlanService.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final int MAX_CHILD_REPORTS = 50;

    private final PlanVm vm;
    private final RunStore store;
    private final PendingCalls waiting;
    private final RunLookup lookup;

    RunViews(PlanVm vm, RunStore store, PendingCalls waiting, RunLookup lookup) {
        this.vm = vm;
        this.store = store;
        this.waiting = waiting;
        this.lookup = lookup;
    }

    /** An outcome's {@code pending} with the call id an approval names, read from the store (see {@link PlanService#await}). */
    ObjectNode withPendingCall(String id, ObjectNode outcome) {
        if (outcome.path("pending").isObject()) { // the call it waits for, with the id an approval names
            guard(() -> store.find(id))
                    .filter(run -> run.id().equals(id))
                    .map(run -> guard(() -> waiting.first(run)))
                    .filter(p -> p.has("child_run")
                            || p.path("seq_no").asInt()
                                    == outcome.at("/pending/seq_no").asInt())
                    .ifPresent(p -> outcome.set("pending", p));
        }
        return outcome;
    }

    /** See {@link PlanService#run(String, int)}. */
    ObjectNode run(String id, int maxElements) {
        if (maxElements < 0 || maxElements > PlanService.MAX_ELEMENT_ROWS) {
            throw new ServiceException(
                    ServiceException.Kind.BAD_REQUEST,
                    "max_elements must be 0 to " + PlanService.MAX_ELEMENT_ROWS + ", not " + maxElements);
        }
        StoredRun run = lookup.find(id);
        ObjectNode document = RunDocuments.full(
                run, lookup.state(run), guard(() -> store.caller(run.id())), guard(() -> store.children(run.id())));
        document.set("pending", guard(() -> waiting.first(run)));
        document.set("pending_calls", guard(() -> waiting.all(run, document, maxElements)));
        ElementRows.add(
                document, (ArrayNode) document.get("steps"), guard(() -> store.elements(run.id())), maxElements);
        return document;
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

    /** See {@link PlanService#report}. */
    ObjectNode report(String id) {
        StoredRun run = lookup.find(id);
        List<ChildReport> children = new ArrayList<>();
        for (RunStore.ChildRun child : guard(() -> store.children(run.id()))) {
            children.add(new ChildReport(child.summary().id(), child.seqNo(), null));
        }
        ObjectNode model = Reports.model(Reports.of(run, lineage(run)).withReach(reach(run)), children);
        ((ObjectNode) model.path("summary")).put("status", lookup.state(run));
        ObjectNode about = model.putObject("run")
                .put("id", run.id())
                .put("state", lookup.state(run))
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

    /** See {@link PlanService#childReports}. */
    List<ChildReport> childReports(StoredRun run) {
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

    /** See {@link PlanService#lineage}. */
    List<StoredRun> lineage(StoredRun run) {
        return Reports.lineage(run, parent -> guard(() -> store.find(parent)));
    }

    /** See {@link PlanService#list(String, String, int, int)}. */
    ObjectNode list(String state, String q, int limit, int offset) {
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
                        .map(found -> lookup.tree(found).waiting())
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
}
