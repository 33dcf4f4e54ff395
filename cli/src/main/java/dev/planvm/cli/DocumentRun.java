package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.IdyllDocuments;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.json.AtomicFiles;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.durable.StoredStep;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * {@code planvm run DOC.xml} (an Idyll document, {@link Dialect#IDYLL}): the document is compiled knowing
 * the run's tools (so a block whose function is no tool fails on its own, and each tool gets only the
 * block's inputs it takes), {@code --block ID} runs one block, the printed report gets each block's time
 * from the run's steps, {@code --write-document OUT} writes a copy with the results filled in, and the
 * exit code is 1 when a block failed.
 */
final class DocumentRun {

    private final String file;
    private final Dialect dialect;
    private final String block;
    private final Path writeDocument;
    private final Map<Integer, Double> stepMillis = new ConcurrentHashMap<>();
    private Plan plan;
    private JsonNode storedReport;

    private DocumentRun(String file, Dialect dialect, String block, Path writeDocument) {
        this.file = file;
        this.dialect = dialect;
        this.block = block;
        this.writeDocument = writeDocument;
    }

    /**
     * The document run a session of stored run {@code run} ended ({@code resume}, {@code approve},
     * {@code answer}, {@code rerun}), or {@code null} when its answer is no document's report: the report
     * gets each block's time from the run's committed steps of every session (this session's result knows
     * only its own), and a failed block exits 1 as in {@code run}.
     */
    static DocumentRun stored(StoredRun run) {
        if (run.finalAnswer() == null) {
            return null;
        }
        JsonNode report = IdyllDocuments.withStepDurations(
                run.finalAnswer(),
                run.plan(),
                run.steps().stream().map(StoredStep::trace).toList());
        if (report == run.finalAnswer()) {
            return null;
        }
        DocumentRun document = new DocumentRun(run.planSource(), Dialect.IDYLL, null, null);
        document.storedReport = report;
        return document;
    }

    /**
     * The document run of {@code file}, or {@code null} when it is no document (then {@code --block} and
     * {@code --write-document} are usage errors).
     */
    static DocumentRun of(String file, Dialect dialect, String block, Path writeDocument, CommandLine commandLine) {
        boolean document = !file.equals("-") && PlanSources.dialectOf(file, dialect) == Dialect.IDYLL
                || file.equals("-") && dialect == Dialect.IDYLL;
        if (!document) {
            if (block != null || writeDocument != null) {
                throw new CommandLine.ParameterException(
                        commandLine, "--block and --write-document are for Idyll documents (.idyll, .xml)");
            }
            return null;
        }
        if (writeDocument != null && file.equals("-")) {
            throw new CommandLine.ParameterException(
                    commandLine, "--write-document needs the document's file, not standard input");
        }
        if (writeDocument != null
                && Path.of(file)
                        .toAbsolutePath()
                        .normalize()
                        .equals(writeDocument.toAbsolutePath().normalize())) {
            throw new CommandLine.ParameterException(
                    commandLine, "--write-document writes a copy: give another file than the document itself");
        }
        return new DocumentRun(file, dialect, block, writeDocument);
    }

    /** Loads the document for a run on {@code vm} in {@code mode}; errors (and, when verbose, warnings) go to {@code err}. */
    LoadResult load(PlanVm vm, Set<String> inputs, RunMode mode, PrintWriter err, boolean verbose) {
        PlanSources sources = PlanInput.sources(vm.loader(), inputs)
                .withToolSchemas(schemas(vm.tools(), mode))
                .withBlock(block);
        LoadResult loaded = PlanInput.load(sources, file, dialect);
        for (Diagnostic diagnostic : loaded.diagnostics()) {
            if (diagnostic.isError() || verbose) {
                err.println(TerminalText.safe(diagnostic.format(file)));
            }
        }
        plan = loaded.plan();
        return loaded;
    }

    /**
     * Each tool's params schema by name: in a live or recorded run the installed tools (set up as a
     * call would); in a replay, which calls nothing real, the tools set up already, and those the
     * cassette answers, each taking what its recorded calls were given.
     */
    static Function<String, Optional<JsonNode>> schemas(ToolRegistry tools, RunMode mode) {
        if (!(mode instanceof RunMode.Replay replay)) {
            return name -> tools.find(name).map(Tool::paramsSchema);
        }
        Map<String, ObjectNode> recorded = new HashMap<>();
        for (Interaction interaction : replay.cassette().flat()) {
            if (interaction instanceof Interaction.ToolInteraction call) {
                ObjectNode schema = recorded.computeIfAbsent(call.tool(), t -> {
                    ObjectNode s = JsonNodeFactory.instance.objectNode().put("type", "object");
                    s.putObject("properties");
                    s.put("additionalProperties", false);
                    return s;
                });
                call.params()
                        .fieldNames()
                        .forEachRemaining(key -> ((ObjectNode) schema.get("properties")).putObject(key));
            }
        }
        return name ->
                tools.findResolved(name).map(Tool::paramsSchema).or(() -> Optional.ofNullable(recorded.get(name)));
    }

    /** Hears each step's time, for the report. */
    RunListener listener() {
        return new RunListener() {
            @Override
            public void stepFinished(StepRecord step) {
                stepMillis.merge(step.seqNo(), step.durationNanos() / 1_000_000.0, Double::sum);
            }
        };
    }

    /** The result with the report completed by the steps' times. */
    RunResult complete(RunResult result) {
        if (plan == null && storedReport == null || !result.succeeded()) {
            return result;
        }
        JsonNode report = storedReport != null
                ? storedReport
                : IdyllDocuments.withDurations(
                        result.finalAnswer(),
                        plan,
                        Map.copyOf(stepMillis),
                        result.duration().toNanos() / 1_000_000.0);
        return new RunResult(
                result.status(),
                report,
                result.variables(),
                result.error(),
                result.steps(),
                result.duration(),
                traced(result.trace(), result.finalAnswer(), report),
                result.warnings(),
                result.earlyCalls(),
                result.pending(),
                result.failedSteps());
    }

    /** The trace ({@code --trace}) with the completed report as its result, unless it kept only a part of it. */
    private static JsonNode traced(JsonNode trace, JsonNode answer, JsonNode report) {
        if (!(trace instanceof ObjectNode object) || !answer.equals(trace.get("result"))) {
            return trace;
        }
        ObjectNode copy = object.deepCopy();
        copy.set("result", report);
        return copy;
    }

    /**
     * After the report is printed: writes the copy of the document ({@code --write-document}), says how
     * many blocks failed; {@code false} when a block failed or the copy could not be written.
     */
    boolean finish(RunResult result, PrintWriter err, String label) {
        boolean ok = true;
        if (writeDocument != null) {
            try {
                String source = Files.readString(Path.of(file), StandardCharsets.UTF_8);
                AtomicFiles.write(
                        writeDocument,
                        IdyllDocuments.withResults(source, result.finalAnswer()).getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                err.println(TerminalText.safe(label + ": the document with results cannot be written to "
                        + writeDocument + ": " + e.getMessage()));
                ok = false;
            }
        }
        int failed = IdyllDocuments.failedBlocks(result.finalAnswer());
        if (failed > 0) {
            err.println(TerminalText.safe(
                    label + ": " + failed + (failed == 1 ? " block" : " blocks") + " failed (the report says why)"));
            ok = false;
        }
        return ok;
    }
}
