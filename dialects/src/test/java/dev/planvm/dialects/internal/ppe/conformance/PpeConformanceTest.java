package dev.planvm.dialects.internal.ppe.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Replays the recordings of the PPE reference ({@code conformance/ppe/recordings}, made by {@code
 * conformance/ppe/record.mjs} with {@code ai run} against the {@link DeterministicLlm}) against planvm: each
 * script the reference ran to a result is compiled and run by planvm against the same deterministic LLM; it is
 * "as the reference" when planvm sent the same LLM requests (in {@link DeterministicLlm#normalForm normal form},
 * in order) and gave the same result. Scripts that {@code corpus.json} sets apart ({@code expect}: refused by planvm
 * by design, the reference contradicting seed 004, planvm's own design) are listed with why and not counted; the
 * others give {@code N/M scripts as the reference}, per source and in all, with the first difference of every
 * other script. Fails when N drops below the floor committed in {@code conformance/ppe/floor.json} (a change
 * that makes planvm run fewer scripts as the reference does must say so by lowering it), or when a script listed
 * as refused is not refused.
 */
class PpeConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path HERE = ROOT.resolve("conformance/ppe");

    private static DeterministicLlm llm;

    @BeforeAll
    static void start() {
        llm = DeterministicLlm.start(0, null);
    }

    @AfterAll
    static void stop() {
        llm.close();
    }

    @Test
    void planvm_runs_the_scripts_the_reference_runs_as_the_reference_does() throws IOException {
        List<Recording> recordings = Recording.readAll(HERE.resolve("recordings"));
        assertThat(recordings).as("recordings").isNotEmpty();
        JsonNode corpus = JSON.readTree(HERE.resolve("corpus.json").toFile());
        Map<String, JsonNode> entries = new TreeMap<>();
        corpus.path("scripts").forEach(e -> entries.put(e.path("id").asText(), e));
        Map<String, int[]> bySource = new TreeMap<>();
        Map<String, List<String>> apart = new TreeMap<>();
        List<String> differences = new ArrayList<>();
        List<String> unexpected = new ArrayList<>();
        int same = 0;
        int counted = 0;
        for (Recording recording : recordings) {
            if (!recording.referenceRan()) {
                continue;
            }
            JsonNode entry = entries.getOrDefault(recording.id(), JSON.createObjectNode());
            String expect = entry.path("expect").asText("");
            String why = entry.path("why").asText("");
            String difference = new Replay(llm, ROOT).difference(recording);
            if (!expect.isEmpty()) {
                apart.computeIfAbsent(expect, k -> new ArrayList<>()).add(recording.id() + ": " + why);
                if (expect.equals("refused") && (difference == null || !difference.startsWith("planvm refuses it"))) {
                    unexpected.add(recording.id() + " is listed as refused by planvm, but: "
                            + (difference == null ? "it runs as the reference" : difference));
                }
                continue;
            }
            counted++;
            int[] counts = bySource.computeIfAbsent(recording.source(), source -> new int[2]);
            counts[1]++;
            if (difference == null) {
                counts[0]++;
                same++;
            } else {
                differences.add(recording.id() + ": " + (why.isEmpty() ? "" : why + " — ") + difference);
            }
        }
        StringBuilder report = new StringBuilder();
        bySource.forEach((source, c) ->
                report.append(String.format("%-20s %d/%d scripts as the reference%n", source, c[0], c[1])));
        report.append(String.format("%-20s %d/%d scripts as the reference%n", "all", same, counted));
        apart.forEach((expect, ids) -> {
            report.append(String.format("left out, %s: %d%n", expect, ids.size()));
            ids.forEach(id -> report.append("  ").append(id).append('\n'));
        });
        differences.forEach(d -> report.append("  differs: ").append(d).append('\n'));
        unexpected.forEach(u -> report.append("  unexpected: ").append(u).append('\n'));
        System.out.print(report);
        Path out = Path.of("target/ppe-conformance.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        assertThat(unexpected)
                .as("scripts listed as refused that planvm does not refuse")
                .isEmpty();
        int floor =
                JSON.readTree(HERE.resolve("floor.json").toFile()).path("same").asInt();
        assertThat(same)
                .as(
                        "scripts as the reference (the floor in conformance/ppe/floor.json); see target/ppe-conformance.txt")
                .isGreaterThanOrEqualTo(floor);
    }

    /** One recorded run of the reference. */
    record Recording(
            String id,
            String source,
            String script,
            JsonNode input,
            String status,
            JsonNode result,
            List<JsonNode> requests) {

        boolean referenceRan() {
            return "ok".equals(status);
        }

        static List<Recording> readAll(Path folder) throws IOException {
            List<Recording> all = new ArrayList<>();
            try (var files = Files.walk(folder)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json"))
                        .sorted()
                        .toList()) {
                    JsonNode r = JSON.readTree(file.toFile());
                    List<JsonNode> requests = new ArrayList<>();
                    r.path("requests").forEach(q -> requests.add(q.path("normal")));
                    all.add(new Recording(
                            r.path("id").asText(),
                            r.path("source").asText(),
                            r.path("script").asText(),
                            r.path("input"),
                            r.path("status").asText(),
                            r.path("result"),
                            requests));
                }
            }
            return all;
        }
    }
}
