package dev.planvm.dialects.internal.idyll;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.LoadResult;
import dev.planvm.json.JsonEquality;
import dev.planvm.llm.LlmConfig;
import dev.planvm.llm.LlmGenerateTool;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The reference engine (idyllic-labs/idyll-engine) and planvm give the same execution report for the
 * documents of {@code idyll-conformance/}: the reference's examples and the documents of its tests, run
 * with the same deterministic functions ({@link IdyllFunctions}; {@code record.ts} recorded the
 * reference's reports, in {@code reports/}, with node). Generated ids and durations are normalized.
 * Where the reference contradicts seed 003 planvm follows the seed; {@code expected.json} says, for each
 * document, whether the reports are the same, the same once a documented difference is set aside, or
 * differ and why. Custom functions' variables come from a loopback LLM that answers what the
 * reference's resolver answered.
 */
class IdyllConformanceTest {

    private static final Path DIR = Path.of("src/test/resources/idyll-conformance");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern GENERATED =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|block-\\d+(-\\d+)?");

    /** What comparing one document gave. */
    record Outcome(String verdict, String detail) {}

    @TestFactory
    Stream<DynamicTest> each_document_gives_the_report_the_expectation_says() throws IOException {
        JsonNode expected = MAPPER.readTree(DIR.resolve("expected.json").toFile());
        return documents().stream()
                .map(name -> DynamicTest.dynamicTest(name, () -> {
                    Outcome outcome = compare(name);
                    String verdict = outcome.verdict().equals("same")
                                    && !outcome.detail().isEmpty()
                            ? "same: " + outcome.detail()
                            : outcome.verdict();
                    assertThat(verdict)
                            .as(outcome.detail())
                            .isEqualTo(expected.path(name).path("verdict").asText("(no expectation)"));
                }));
    }

    @Test
    void most_documents_give_the_same_report_as_the_reference() throws IOException {
        int same = 0;
        int all = 0;
        for (String name : documents()) {
            all++;
            if (compare(name).verdict().startsWith("same")) {
                same++;
            }
        }
        System.out.println("Idyll conformance: " + same + "/" + all + " documents give the reference's report");
        assertThat(same).isGreaterThanOrEqualTo(12);
    }

    private static List<String> documents() throws IOException {
        try (Stream<Path> files = Files.list(DIR.resolve("documents"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".xml"))
                    .sorted()
                    .toList();
        }
    }

    static Outcome compare(String name) throws IOException {
        String base = name.substring(0, name.length() - 4);
        JsonNode reference =
                MAPPER.readTree(DIR.resolve("reports").resolve(base + ".json").toFile());
        String registry =
                MAPPER.readTree(DIR.resolve("corpus.json").toFile()).path(name).asText();
        JsonNode ours = run(DIR.resolve("documents").resolve(name), registry, reference);
        if (reference.has("refused") || ours.has("refused")) {
            if (reference.has("refused") && ours.has("refused")) {
                return new Outcome("same", "both refuse it");
            }
            return new Outcome(
                    "differs",
                    reference.has("refused")
                            ? "the reference refuses it ("
                                    + reference.get("refused").asText() + ")"
                            : "planvm refuses it (" + ours.get("refused").asText() + ")");
        }
        JsonNode theirs = normalize(reference);
        JsonNode mine = normalize(ours);
        if (JsonEquality.equal(theirs, mine)) {
            return new Outcome("same", "");
        }
        List<String> setAside = new ArrayList<>();
        theirs = setAside(reference, setAside);
        if (JsonEquality.equal(normalize(theirs), mine)) {
            return new Outcome("same", "after " + String.join(", ", setAside));
        }
        return new Outcome("differs", "reference " + normalize(theirs) + " planvm " + mine);
    }

    /** The documented differences, applied to the reference's report (each named in {@code applied}). */
    private static JsonNode setAside(JsonNode reference, List<String> applied) {
        ObjectNode report = reference.deepCopy();
        Set<String> definition = new HashSet<>();
        reference.path("definitionBlocks").forEach(id -> definition.add(id.asText()));
        if (!definition.isEmpty()) {
            ArrayNode kept = JsonNodeFactory.instance.arrayNode();
            report.path("nodes").forEach(n -> {
                if (!definition.contains(n.path("id").asText())) {
                    kept.add(n);
                }
            });
            report.set("nodes", kept);
            int ok = 0;
            for (JsonNode n : kept) {
                ok += n.path("success").asBoolean() ? 1 : 0;
            }
            ((ObjectNode) report.get("metadata"))
                    .put("nodesExecuted", kept.size())
                    .put("nodesSucceeded", ok)
                    .put("nodesFailed", kept.size() - ok);
            applied.add("leaving out the blocks inside definitions the reference runs as document blocks");
        }
        for (JsonNode n : report.path("nodes")) {
            JsonNode message = n.path("error").path("message");
            String text = message.asText();
            int half = text.indexOf("; ");
            if (text.startsWith("Variable redeclaration errors: ") && half > 0) {
                ((ObjectNode) n.get("error")).put("message", text.substring(0, half));
                applied.add("reading the reference's redeclaration error once (it lists it twice)");
            }
        }
        report.remove("definitionBlocks");
        return report;
    }

    /** Generated ids (the reference's uuids, planvm's block-N) and durations made comparable. */
    private static JsonNode normalize(JsonNode value) {
        if (value.isTextual()) {
            return TextNode.valueOf(GENERATED.matcher(value.asText()).replaceAll("<id>"));
        }
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            value.properties().forEach(e -> {
                if (e.getKey().equals("definitionBlocks")) {
                    return;
                }
                copy.set(
                        e.getKey(),
                        e.getKey().endsWith("uration_ms")
                                ? JsonNodeFactory.instance.numberNode(0)
                                : normalize(e.getValue()));
            });
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(v -> copy.add(normalize(v)));
            return copy;
        }
        return value;
    }

    /** The report planvm gives, or {@code {"refused": message}}. */
    static JsonNode run(Path document, String registry, JsonNode reference) {
        try (FakeOpenAiServer llm = FakeOpenAiServer.start()) {
            for (JsonNode variables : recordedVariables(reference)) {
                llm.reply(variables.toString());
            }
            PlanVmBuilder builder = PlanVm.builder()
                    .tool(new LlmGenerateTool(LlmConfig.fromEnvironment(
                                    Map.of("OPENAI_BASE_URL", llm.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "10"))
                            .orElseThrow()));
            IdyllFunctions.registry(registry).forEach(builder::tool);
            PlanVm vm = builder.build();
            LoadResult loaded = PlanSources.of(vm.loader())
                    .withToolSchemas(n -> vm.tools().find(n).map(Tool::paramsSchema))
                    .load(document, null);
            if (!loaded.valid()) {
                return JsonNodeFactory.instance
                        .objectNode()
                        .put("refused", loaded.errors().get(0).message());
            }
            RunResult result = vm.run(loaded.plan(), Map.of());
            assertThat(result.error()).as("the run of " + document).isNull();
            return result.finalAnswer();
        }
    }

    /** The variables the reference resolved for each call of a custom function, in order. */
    private static List<JsonNode> recordedVariables(JsonNode reference) {
        List<JsonNode> out = new ArrayList<>();
        Map<String, JsonNode> none = new LinkedHashMap<>();
        for (JsonNode node : reference.path("nodes")) {
            if (node.path("fn").asText().startsWith("custom:")
                    && node.path("data").has("variables")) {
                out.add(node.path("data").path("variables"));
            }
        }
        none.clear();
        return out;
    }
}
