package dev.planvm.dialects.internal.ppe.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.ImportedPlan;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.llm.LlmConfig;
import dev.planvm.llm.LlmGenerateTool;
import dev.planvm.llm.LlmProvider;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs one recorded script on planvm against the deterministic LLM and says how it differs from the recording. */
final class Replay {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SHOWN = 160;

    private final DeterministicLlm llm;
    private final Path root;

    Replay(DeterministicLlm llm, Path root) {
        this.llm = llm;
        this.root = root;
    }

    /** Null when planvm sent the same requests and gave the same result; else the first difference. */
    String difference(PpeConformanceTest.Recording recording) {
        llm.clear();
        Path script = root.resolve(recording.script());
        Map<String, JsonNode> inputs = new LinkedHashMap<>();
        if (recording.input().isObject()) {
            recording.input().properties().forEach(e -> inputs.put(e.getKey(), e.getValue()));
        }
        Compiled compiled = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(inputs.keySet()))
                .compile(script);
        if (!compiled.valid()) {
            return "planvm refuses it: " + first(compiled.errors());
        }
        PlanVmBuilder builder = PlanVm.builder()
                .sequential(true)
                .tool(new LlmGenerateTool(
                        new LlmConfig("sk-conformance", llm.baseUrl(), "fake", Duration.ofSeconds(60))));
        PlanVm loaderVm = builder.build();
        for (ImportedPlan imported : compiled.imports()) {
            LoadResult loaded = imported.load(loaderVm.loader());
            if (loaded.plan() == null) {
                return "planvm cannot load the script it calls, " + imported.name() + ": "
                        + first(loaded.diagnostics());
            }
            builder.planTool(loaded.plan());
        }
        PlanVm vm = builder.build();
        LoadResult loaded = compiled.load(vm.loader(), script.toString());
        Plan plan = loaded.plan();
        if (plan == null) {
            return "planvm cannot load the compiled plan: " + first(loaded.diagnostics());
        }
        RunResult result;
        try {
            result = vm.run(plan, inputs, RunMode.live());
        } catch (dev.planvm.vm.PlanRejectedException refused) {
            return "planvm refuses it before it runs: " + shorten(refused.getMessage());
        }
        List<Map<String, Object>> sent = llm.exchanges();
        List<JsonNode> expected = recording.requests();
        for (int i = 0; i < Math.min(sent.size(), expected.size()); i++) {
            String mine = DeterministicLlm.Json.write(sent.get(i).get("normal"));
            String theirs = canonical(asSentToOpenAi(expected.get(i)));
            if (!mine.equals(theirs)) {
                return "request " + (i + 1) + " differs: " + firstDifference(theirs, mine);
            }
        }
        if (result.error() != null && sent.size() <= expected.size()) {
            return "planvm fails after " + sent.size() + " of " + expected.size() + " requests: "
                    + shorten(result.error().message());
        }
        if (sent.size() != expected.size()) {
            return "planvm sends " + sent.size() + " requests, the reference " + expected.size();
        }
        String theirs = canonical(recording.result());
        JsonNode answer = result.finalAnswer();
        String mine = answer == null || answer.isMissingNode() ? "null" : canonical(answer);
        if (!mine.equals(theirs)) {
            return "the result differs: reference " + shorten(theirs) + ", planvm " + shorten(mine);
        }
        return null;
    }

    /**
     * A recorded request's normal form with its JSON Schema in OpenAI's strict form, the form planvm sends to an
     * OpenAI-compatible server (every object closed, every property required, optional ones nullable): the
     * reference sends the script's schema as it is, which OpenAI's strict structured outputs refuse. The two
     * schemas mean the same answers; comparing them in one form keeps every other difference.
     */
    private static JsonNode asSentToOpenAi(JsonNode request) {
        if (!(request.at("/response_format/schema") instanceof ObjectNode schema)) {
            return request;
        }
        ObjectNode copy = request.deepCopy();
        ((ObjectNode) copy.get("response_format")).set("schema", LlmProvider.OPENAI.structuredOutputSchema(schema));
        return copy;
    }

    /** A JSON value written as {@link DeterministicLlm.Json} writes it (numbers as JavaScript writes them). */
    private static String canonical(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "null";
        }
        return DeterministicLlm.Json.write(DeterministicLlm.Json.parse(node.toString()));
    }

    private static String firstDifference(String theirs, String mine) {
        int at = 0;
        while (at < theirs.length() && at < mine.length() && theirs.charAt(at) == mine.charAt(at)) {
            at++;
        }
        int from = Math.max(0, at - 40);
        return "at " + at + ": reference …" + cut(theirs, from) + " / planvm …" + cut(mine, from);
    }

    private static String cut(String text, int from) {
        return text.substring(from, Math.min(text.length(), from + SHOWN));
    }

    private static String shorten(String text) {
        String line = text.replace('\n', ' ');
        return line.length() <= SHOWN ? line : line.substring(0, SHOWN) + "…";
    }

    private static String first(List<Diagnostic> diagnostics) {
        return diagnostics.isEmpty()
                ? "(no message)"
                : shorten(diagnostics.get(0).format(""));
    }
}
