package dev.planvm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.agent.Agent;
import dev.planvm.agent.AgentResult;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.Spelling;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.batch.Expectation;
import dev.planvm.vm.batch.ExpectationException;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.batch.RegressionResult;
import dev.planvm.vm.batch.RegressionUpdate;
import dev.planvm.vm.run.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Agent tests for {@code planvm test}: a file {@code X.json} holding
 * {@code {"format": "planvm-ask/1", "goal": "...", "vars": {...}, "stream": true, "replan": 1,
 * "repair_rounds": 2, "answer_format": "json"}} is an agent run ({@code planvm ask}) that replays
 * {@code X.cassette.json} (recorded with {@code ask --record}) and is compared with
 * {@code X.expected.json} like a plan's result.
 */
final class AskTests {

    static final String FORMAT = "planvm-ask/1";
    private static final Set<String> KEYS =
            Set.of("format", "goal", "vars", "stream", "replan", "repair_rounds", "answer_format");
    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private final PlanVm vm;
    private final Map<String, JsonNode> inputs;

    AskTests(PlanVm vm, Map<String, JsonNode> inputs) {
        this.vm = vm;
        this.inputs = Map.copyOf(inputs);
    }

    RegressionResult test(Path file) {
        Path expected = PlanFileRunner.expectationFor(file);
        if (!Files.exists(expected)) {
            return new RegressionResult(
                    file, RegressionResult.Verdict.SKIPPED, List.of("no " + expected.getFileName()), 0);
        }
        Expectation expectation;
        try {
            expectation = Expectation.read(expected);
        } catch (ExpectationException e) {
            return new RegressionResult(
                    file, RegressionResult.Verdict.FAILED, List.of("expectation " + e.getMessage()), 0);
        }
        PlanOutcome outcome = run(file);
        List<String> differences = expectation.compare(outcome);
        return new RegressionResult(
                file,
                differences.isEmpty() ? RegressionResult.Verdict.PASSED : RegressionResult.Verdict.FAILED,
                differences,
                outcome.durationMs());
    }

    RegressionUpdate update(Path file) throws IOException {
        PlanOutcome outcome = run(file);
        Path expected = PlanFileRunner.expectationFor(file);
        boolean existed = Files.exists(expected);
        try {
            if (existed && Expectation.read(expected).matches(outcome)) {
                return new RegressionUpdate(file, expected, RegressionUpdate.Change.UNCHANGED);
            }
        } catch (ExpectationException unusable) {
            // written anew below
        }
        Expectation.snapshot(outcome).write(expected);
        return new RegressionUpdate(
                file, expected, existed ? RegressionUpdate.Change.UPDATED : RegressionUpdate.Change.CREATED);
    }

    /** The agent run the file describes, replaying the cassette beside it (live when there is none). */
    PlanOutcome run(Path file) {
        long start = System.nanoTime();
        JsonNode ask;
        try {
            ask = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            return invalid(file, "cannot read the agent test: " + JsonErrors.malformed(e), start);
        } catch (IOException e) {
            return invalid(file, "cannot read the agent test: " + e.getMessage(), start);
        }
        String problem = problem(ask);
        if (problem != null) {
            return invalid(file, problem, start);
        }
        Path cassette = file.resolveSibling(PlanFileRunner.baseName(file) + ".cassette.json");
        RunMode mode = Files.exists(cassette) ? RunMode.replay(Cassette.read(cassette), false) : RunMode.live();
        Map<String, JsonNode> variables = new LinkedHashMap<>(inputs);
        ask.path("vars").properties().forEach(var -> variables.put(var.getKey(), var.getValue()));
        AgentResult result = Agent.builder(vm).stream(ask.path("stream").asBoolean(false))
                .replans(ask.path("replan").asInt(0))
                .repairRounds(ask.path("repair_rounds").asInt(dev.planvm.agent.Planner.DEFAULT_REPAIR_ROUNDS))
                .format(format(ask.path("answer_format").asText("auto")))
                .build()
                .ask(ask.get("goal").asText(), variables, mode);
        long took = (System.nanoTime() - start) / 1_000_000;
        int steps = result.lastResult() == null ? 0 : result.lastResult().steps();
        return new PlanOutcome(
                file,
                result.succeeded() ? RunStatus.SUCCEEDED : RunStatus.FAILED,
                vm.redactor().redact(result.finalAnswer()),
                result.error() == null ? null : vm.redactor().redact(result.error()),
                took,
                steps,
                List.of(),
                result.trace());
    }

    private static String problem(JsonNode ask) {
        if (!ask.isObject() || !FORMAT.equals(ask.path("format").asText())) {
            return "an agent test is an object with \"format\": \"" + FORMAT + "\"";
        }
        if (!ask.path("goal").isTextual()) {
            return "an agent test needs \"goal\" (text)";
        }
        for (Iterator<String> it = ask.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key)) {
                return "unknown key '" + key + "'"
                        + Spelling.closest(key, KEYS)
                                .map(k -> ": did you mean '" + k + "'?")
                                .orElse("") + " (an agent test has: "
                        + String.join(", ", KEYS.stream().sorted().toList()) + ")";
            }
        }
        if (ask.has("vars") && !ask.get("vars").isObject()) {
            return "\"vars\" must be an object of variables";
        }
        if (format(ask.path("answer_format").asText("auto")) == null
                && !ask.path("answer_format").asText("auto").equals("auto")) {
            return "\"answer_format\" must be auto, strict, json or text";
        }
        return null;
    }

    private static AnswerFormat format(String name) {
        return switch (name) {
            case "strict" -> AnswerFormat.STRICT;
            case "json" -> AnswerFormat.JSON;
            case "text" -> AnswerFormat.TEXT;
            default -> null;
        };
    }

    private static PlanOutcome invalid(Path file, String problem, long start) {
        return new PlanOutcome(
                file,
                RunStatus.INVALID,
                null,
                file.getFileName() + ": " + problem,
                (System.nanoTime() - start) / 1_000_000,
                0,
                List.of(),
                null);
    }
}
