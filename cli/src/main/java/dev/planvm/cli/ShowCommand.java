package dev.planvm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.IdyllDocuments;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.TokenCount;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.ElementRows;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.durable.StoredStep;
import dev.planvm.vm.durable.WaitingCall;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm show RUN}: one stored run and the trace of its committed steps. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Print one stored run as JSON: its status, inputs, clock, result, the tokens its LLM calls spent, "
                        + "the trace entry of every committed step (a for_each step with a row per element: committed, failed, answered or pending), "
                        + "what a waiting run waits for (pending, and pending_calls: each element of a for_each that waits is a call of its own), "
                        + "and the lineage of plan tools' child runs: "
                        + "parent_run_id and parent_seq_no of a child, the children of a parent.")
final class ShowCommand implements Callable<Integer> {

    @CommandLine.Parameters(
            index = "0",
            paramLabel = "RUN",
            description = "The run id (or an unambiguous prefix); with --temporal, a workflow id.")
    private String runId;

    @CommandLine.Mixin
    private StoreOptions store;

    @CommandLine.Option(
            names = "--max-elements",
            paramLabel = "N",
            description = "Show at most N element rows of each for_each step, and at most N of the calls a waiting run"
                    + " waits for (default: ${DEFAULT-VALUE}); elements_more and pending_calls_more count the rest.")
    private int maxElements = ElementRows.DEFAULT_MAX;

    @CommandLine.Mixin
    private TemporalOptions temporal;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws java.io.IOException {
        temporal.checkUsage(spec.commandLine());
        if (maxElements < 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--max-elements must be 0 or more, not " + maxElements);
        }
        if (temporal.enabled()) {
            TemporalSupport.require("show --temporal", spec.commandLine());
            return TemporalRun.show(runId, temporal, spec.commandLine());
        }
        try (RunStore runs = store.openExisting(parent.environment())) {
            StoredRun run = DurableRuns.find(runs, runId);
            ObjectMapper mapper = JsonMappers.mapper(JsonLimits.STORE);
            ObjectNode document = mapper.createObjectNode();
            document.put("run", run.id()).put("status", run.status().label());
            document.putObject("plan").put("source", run.planSource()).put("digest", run.planDigest());
            document.set("inputs", mapper.valueToTree(run.inputs()));
            document.put("mode", run.mode()).put("started", run.startedAt()).put("finished", run.finishedAt());
            document.put("sessions", run.sessions());
            if (run.options().clock() != null) {
                document.set("clock", run.options().clock().toJson()); // what resume and rerun compute dates with
            }
            if (run.parentRun() != null) {
                document.put("rerun_of", run.parentRun()).put("from_seq", run.fromSeq());
            }
            runs.caller(run.id())
                    .ifPresent(caller ->
                            document.put("parent_run_id", caller.runId()).put("parent_seq_no", caller.seqNo()));
            List<RunStore.ChildRun> children = runs.children(run.id());
            if (!children.isEmpty()) {
                ArrayNode list = document.putArray("children");
                children.forEach(child -> list.addObject()
                        .put("run", child.summary().id())
                        .put("seq_no", child.seqNo())
                        .put("state", child.summary().state())
                        .put("plan", child.summary().planSource()));
            }
            document.set(
                    "result",
                    run.finalAnswer() == null
                            ? null
                            : IdyllDocuments.withStepDurations(
                                    run.finalAnswer(),
                                    run.plan(),
                                    run.steps().stream().map(StoredStep::trace).toList()));
            if (run.handsBack()) {
                document.put("use", true); // seed 001's use: the result goes back to the LLM that wrote the plan
            }
            document.set("error", run.error());
            List<WaitingCall> waiting = DurableRuns.waiting(runs, run.id()); // as the run's message named them
            if (!waiting.isEmpty()) {
                document.set("pending", shown(run, waiting.get(0)));
                ArrayNode calls = document.putArray("pending_calls");
                waiting.stream().limit(maxElements).forEach(call -> calls.add(shown(run, call)));
                if (waiting.size() > maxElements) {
                    document.put("pending_calls_more", waiting.size() - maxElements);
                }
            }
            if (!run.approvals().isEmpty()) {
                ArrayNode approvals = document.putArray("approvals");
                run.approvals().forEach(a -> {
                    ObjectNode row =
                            approvals.addObject().put("step", a.stepIndex()).put("seq_no", a.seqNo());
                    if (a.isElement()) {
                        row.put("element", a.element());
                    }
                    row.put("tool", a.tool())
                            .put("decision", a.decision())
                            .put("reason", a.reason())
                            .put("decided", a.decidedAt());
                });
            }
            TokenCount tokens = TokenCount.ZERO;
            for (StoredStep step : run.steps()) {
                tokens = tokens.plus(TokenCount.fromJson(step.trace().at("/inputs/tokens")));
            }
            document.set("tokens", tokens.toJson());
            ArrayNode steps = document.putArray("steps");
            for (StoredStep step : run.steps()) {
                ObjectNode entry = ((ObjectNode) step.trace()).deepCopy();
                entry.put("step", step.index()).put("session", step.session()).put("committed", step.committedAt());
                steps.add(entry);
            }
            ElementRows.add(document, steps, runs.elements(run.id()), maxElements);
            spec.commandLine()
                    .getOut()
                    .println(TerminalText.JSON.withDefaultPrettyPrinter().writeValueAsString(document));
        }
        return ExitCodes.OK;
    }

    /** A call the run waits for, as the HTTP API gives it; a child run's names that run ({@code child_run}). */
    private static ObjectNode shown(StoredRun run, WaitingCall call) {
        ObjectNode json = call.toJson();
        if (!call.runId().equals(run.id())) {
            json.put("child_run", call.runId());
        }
        return json;
    }
}
