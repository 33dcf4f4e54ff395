package dev.planvm.server.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.IdyllDocuments;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.durable.StoredStep;
import dev.planvm.vm.run.RunStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/** The {@link ReportInput}s of a stored run and of a trace document. */
public final class Reports {

    private Reports() {}

    /**
     * The report of a stored run: its committed steps on one timeline across sessions (each step placed by
     * when it committed), its plan, and {@code lineage} (the runs a rerun started from, oldest first,
     * ending with this run).
     */
    public static ReportInput of(StoredRun run, List<StoredRun> lineage) {
        return new ReportInput(
                "planvm run " + run.id() + " · " + run.planSource(), run.plan(), trace(run), lines(lineage), List.of());
    }

    /**
     * The chain of runs {@code run} was rerun from, oldest first, ending with {@code run} (at most 50);
     * {@code find} reads a run by id.
     */
    public static List<StoredRun> lineage(
            StoredRun run, java.util.function.Function<String, java.util.Optional<StoredRun>> find) {
        java.util.LinkedList<StoredRun> chain = new java.util.LinkedList<>();
        chain.addFirst(run);
        StoredRun current = run;
        while (current.parentRun() != null && chain.size() < 50) {
            current = find.apply(current.parentRun()).orElse(null);
            if (current == null) {
                break;
            }
            chain.addFirst(current);
        }
        return chain;
    }

    /**
     * The report model of {@code input} that {@code report.js} draws ({@code ReportModel}), with {@code children}
     * named under the steps that started them.
     */
    public static ObjectNode model(ReportInput input, List<ChildReport> children) {
        return ReportModel.withChildren(ReportModel.of(input), children);
    }

    /** The report of a trace document ({@code --trace OUT}); {@code plan} (may be null) draws the flow graph. */
    public static ReportInput of(JsonNode trace, JsonNode plan, String title) {
        return new ReportInput(title, plan, trace, List.of(), List.of());
    }

    /** A trace document of a stored run: what the store keeps of it (committed steps; calls are not kept). */
    public static ObjectNode trace(StoredRun run) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode trace = json.objectNode();
        trace.put("format", "planvm-trace/1").put("mode", run.mode());
        trace.putObject("plan").put("source", run.planSource()).put("digest", run.planDigest());
        ObjectNode inputs = trace.putObject("inputs");
        run.inputs().forEach(inputs::set);
        trace.put("started", run.startedAt()).put("finished", run.finishedAt());
        trace.put(
                "status",
                run.status() == RunStatus.RUNNING
                        ? "running or interrupted"
                        : run.status().label());
        trace.set(
                "result",
                run.finalAnswer() == null
                        ? json.nullNode()
                        : IdyllDocuments.withStepDurations(
                                run.finalAnswer(),
                                run.plan(),
                                run.steps().stream().map(StoredStep::trace).toList()));
        trace.set("error", run.error() == null ? json.nullNode() : run.error());
        trace.put("step_count", run.steps().size());
        Instant started = instant(run.startedAt());
        ArrayNode steps = trace.putArray("steps");
        for (StoredStep step : run.steps()) {
            ObjectNode entry = ((ObjectNode) step.trace()).deepCopy();
            Instant committed = instant(step.committedAt());
            if (started != null && committed != null) {
                double took = entry.path("duration_ms").asDouble(0);
                entry.put(
                        "start_ms",
                        Math.max(0, Duration.between(started, committed).toNanos() / 1e6 - took));
            }
            entry.put("step", step.index()).put("session", step.session());
            steps.add(entry);
        }
        run.pendingApproval().ifPresent(p -> {
            ObjectNode pending = trace.putObject("pending").put("seq_no", p.seqNo());
            if (p.isElement()) {
                pending.put("element", p.element());
            }
            pending.put("tool", p.tool()).set("params", p.params());
        });
        return trace;
    }

    private static List<String> lines(List<StoredRun> lineage) {
        List<String> lines = new ArrayList<>();
        for (StoredRun run : lineage) {
            StringBuilder line = new StringBuilder(run.id())
                    .append(' ')
                    .append(run.status().label())
                    .append(", started ")
                    .append(run.startedAt());
            if (run.parentRun() != null) {
                line.append(", rerun of ")
                        .append(run.parentRun())
                        .append(" from seq_no ")
                        .append(run.fromSeq());
            }
            if (run.sessions() > 1) {
                line.append(", ")
                        .append(run.sessions())
                        .append(" sessions (resumed ")
                        .append(run.sessions() - 1)
                        .append(run.sessions() == 2 ? " time)" : " times)");
            }
            lines.add(line.toString());
        }
        return lines.size() == 1
                        && lineage.get(0).parentRun() == null
                        && lineage.get(0).sessions() == 1
                ? List.of()
                : lines;
    }

    private static Instant instant(String text) {
        try {
            return text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
