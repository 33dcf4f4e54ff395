package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.json.AtomicFiles;
import dev.planvm.server.report.HtmlReport;
import dev.planvm.server.report.ReportInput;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.batch.RegressionResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code planvm test --html DIR}: the report of a failing regression, with its differences from the expectation. */
final class FailureReport {

    private FailureReport() {}

    /** Writes {@code DIR/X.html} for plan {@code X.json} (or {@code X.yaml}, {@code X.js}: the StackVM JSON it compiles to) and returns where. */
    static Path write(Path dir, Path plan, RegressionResult result, PlanOutcome outcome) {
        JsonNode trace = outcome != null && outcome.trace() != null ? outcome.trace() : placeholder(plan, outcome);
        LoadResult loaded = PlanSources.of(new PlanLoader()).load(plan);
        JsonNode document = loaded.valid() ? loaded.plan().document() : null;
        Path page = dir.resolve(PlanFileRunner.baseName(plan) + ".html");
        try {
            Files.createDirectories(dir);
            AtomicFiles.write(
                    page,
                    HtmlReport.render(new ReportInput(
                            "planvm test: FAIL " + plan, document, trace, List.of(), result.details())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + page + ": " + e.getMessage(), e);
        }
        return page;
    }

    /** A trace for a plan that did not run (invalid, rejected): its status and why. */
    private static JsonNode placeholder(Path plan, PlanOutcome outcome) {
        ObjectNode trace = JsonNodeFactory.instance.objectNode().put("format", "planvm-trace/1");
        trace.putObject("plan").put("source", plan.toString());
        trace.put("status", outcome == null ? "not run" : outcome.status().label());
        if (outcome != null && outcome.error() != null) {
            trace.putObject("error").putNull("seq_no").put("message", outcome.error());
        }
        trace.putArray("steps");
        return trace;
    }
}
