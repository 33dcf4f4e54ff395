package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.llm.testing.FakeOpenAiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code planvm kb} and {@code run --kb}: knowledge bases built from documents answer vector_search and the graph. */
class KbCommandTest {

    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path docs() throws IOException {
        Path docs = Files.createDirectories(dir.resolve("docs"));
        Files.writeString(docs.resolve("tidb.md"), """
                # TiDB
                ## Placement rules
                Placement rules decide which TiKV nodes hold the replicas of a table's regions.
                """);
        Files.writeString(docs.resolve("cooking.md"), """
                # Bread
                Knead the dough for ten minutes, then let it rise for an hour in a warm place.
                """);
        return docs;
    }

    private String root() {
        return dir.resolve("kb").toString();
    }

    @Test
    void index_list_stats_and_remove_a_knowledge_base() throws Exception {
        Path docs = docs();
        CliRun indexed = CliRun.of("kb", "index", docs.toString(), "--kb", "notes", "--root", root());
        assertThat(indexed.exitCode()).as(indexed.err()).isZero();
        assertThat(indexed.out())
                .startsWith("notes: 2 added, 0 changed, 0 unchanged, 0 removed; 3 chunks embedded, 0 reused, 3 in all");

        CliRun again = CliRun.of("kb", "index", docs.toString(), "--kb", "notes", "--root", root());
        assertThat(again.out()).startsWith("notes: 0 added, 0 changed, 2 unchanged, 0 removed; 0 chunks embedded");

        assertThat(CliRun.of("kb", "list", "--root", root()).out()).startsWith("notes  2 files  3 chunks  0 entities");
        CliRun stats = CliRun.of("kb", "stats", "notes", "--format", "json", "--root", root());
        assertThat(stats.out()).contains("\"files\" : 2", "\"model\" : \"all-MiniLM-L6-v2-q\"", "\"dimension\" : 384");

        CliRun removed = CliRun.of("kb", "remove", "notes", "--root", root());
        assertThat(removed.exitCode()).isZero();
        assertThat(Files.exists(dir.resolve("kb/notes"))).isFalse();
        CliRun missing = CliRun.of("kb", "stats", "notes", "--root", root());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err())
                .startsWith("planvm kb: there is no knowledge base 'notes'")
                .hasLineCount(1);
    }

    @Test
    void a_plan_run_with_kb_searches_the_documents() throws Exception {
        CliRun indexed = CliRun.of("kb", "index", docs().toString(), "--kb", "notes", "--root", root());
        assertThat(indexed.exitCode()).as(indexed.err()).isZero();
        Path config =
                Files.writeString(dir.resolve("planvm.json"), "{\"knowledge\": {\"kb\": \"other\", \"root\": \"kb\"}}");
        Path plan = Files.writeString(dir.resolve("p.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search",
                   "tool_params": {"query": "which nodes hold a table's replicas?", "top_k": 1}, "output_vars": ["hits"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${hits}"}}]""");

        CliRun run = CliRun.of("run", plan.toString(), "--config", config.toString(), "--kb", "notes", "--no-store");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("Placement rules decide")
                .contains("tidb.md")
                .doesNotContain("Knead");
        CliRun absent = CliRun.of("run", plan.toString(), "--config", config.toString(), "--no-store");
        assertThat(absent.exitCode()).isEqualTo(2);
        assertThat(absent.err()).contains("at /knowledge/kb").contains("there is no knowledge base 'other'");
    }

    @Test
    void a_batch_queries_one_knowledge_base_from_many_plans_at_once() throws Exception {
        CliRun indexed = CliRun.of("kb", "index", docs().toString(), "--kb", "notes", "--root", root());
        assertThat(indexed.exitCode()).as(indexed.err()).isZero();
        Path config =
                Files.writeString(dir.resolve("planvm.json"), "{\"knowledge\": {\"kb\": \"notes\", \"root\": \"kb\"}}");
        Path plans = Files.createDirectories(dir.resolve("plans"));
        for (int i = 0; i < 16; i++) {
            String query = i % 2 == 0 ? "which nodes hold a table's replicas?" : "how long does dough rise?";
            Files.writeString(plans.resolve("p" + (char) ('a' + i) + ".json"), """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search",
                       "tool_params": {"query": "%s", "top_k": 1}, "output_vars": ["hits"]}},
                     {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${hits[0].source_uri}"}}]""".formatted(query));
        }

        CliRun batch = CliRun.of("batch", plans.toString(), "--config", config.toString(), "--concurrency", "8");

        assertThat(batch.exitCode()).as(batch.out() + batch.err()).isZero();
        List<String> lines = batch.out().lines().toList();
        assertThat(lines).hasSize(16);
        for (int i = 0; i < 16; i++) {
            assertThat(lines.get(i)).contains(i % 2 == 0 ? "tidb.md" : "cooking.md");
        }
    }

    @Test
    void graph_extraction_needs_an_llm_or_a_cassette() throws Exception {
        CliRun noLlm = CliRun.of("kb", "index", docs().toString(), "--kb", "notes", "--root", root(), "--graph");
        assertThat(noLlm.exitCode()).isEqualTo(2);
        assertThat(noLlm.err()).contains("--graph needs an LLM to extract entities: no LLM is configured");
        assertThat(Files.exists(dir.resolve("kb/notes"))).isFalse();
        CliRun stray = CliRun.of("kb", "index", docs().toString(), "--root", root(), "--replay", "x.json");
        assertThat(stray.exitCode()).isEqualTo(2);
        assertThat(stray.err()).contains("--record and --replay go with --graph");
    }

    /**
     * The example of docs/guides/knowledge.md as a user types it from the repository root (a child JVM there: source
     * paths in the answers are relative to where indexing ran): index the example documents with the
     * recorded graph extractions, then run the example with retrieval live and the LLM replayed.
     */
    @Tag("slow") // end to end: indexes docs/ with the real embedding model (mvn -Pslow)
    @Test
    void the_readme_example_indexes_the_docs_and_runs_with_retrieval_live() throws Exception {
        Files.writeString(dir.resolve("planvm.json"), "{\"knowledge\": {\"kb\": \"planvm-docs\", \"root\": \"kb\"}}");
        Map<String, String> env = Map.of(
                "PLANVM_CONFIG",
                dir.resolve("planvm.json").toString(),
                "PLANVM_STORE",
                dir.resolve("runs.db").toString());

        Child index = child(
                env,
                "kb",
                "index",
                "plans/kb-docs",
                "--kb",
                "planvm-docs",
                "--root",
                root(),
                "--graph",
                "--replay",
                "plans/kb-docs.graph.cassette.json");
        assertThat(index.exit).as(index.output).isZero();
        assertThat(index.output).contains("planvm-docs: 6 added").contains("21 LLM calls");

        Child run = child(
                env,
                "run",
                "plans/kb-example.json",
                "--replay",
                "plans/kb-example.cassette.json",
                "--live",
                "vector_search,retrieve_knowledge_graph");
        assertThat(run.exit).as(run.output).isZero();
        assertThat(run.output).contains("--replay");

        // The same run from a copy of the cassette that holds only the LLM's answer: it succeeds only if the
        // knowledge base answers both retrieval calls live, with the very passages the LLM's recorded prompt quotes.
        ObjectNode cassette = (ObjectNode) JSON.readTree(
                REPOSITORY.resolve("plans/kb-example.cassette.json").toFile());
        ArrayNode llmOnly = JSON.createArrayNode();
        cassette.path("interactions").forEach(i -> {
            if (i.path("tool").asText().equals("llm_generate")) {
                llmOnly.add(i);
            }
        });
        assertThat(llmOnly).hasSize(1);
        cassette.set("interactions", llmOnly);
        Path llmCassette = dir.resolve("llm-only.cassette.json");
        JSON.writeValue(llmCassette.toFile(), cassette);
        Path trace = dir.resolve("trace.json");

        Child live = child(
                env,
                "run",
                "plans/kb-example.json",
                "--replay",
                llmCassette.toString(),
                "--live",
                "vector_search,retrieve_knowledge_graph",
                "--trace",
                trace.toString());

        assertThat(live.exit).as(live.output).isZero();
        JsonNode expected = JSON.readTree(
                REPOSITORY.resolve("plans/kb-example.expected.json").toFile());
        assertThat(live.output).contains(expected.path("final_answer").asText());
        JsonNode steps = JSON.readTree(trace.toFile()).path("steps");
        JsonNode passages = step(steps, 2).path("writes").path("passages");
        assertThat(passages).hasSize(3);
        passages.forEach(hit -> assertThat(hit.path("source_uri").asText()).startsWith("plans/kb-docs/"));
        assertThat(passages.get(0).path("source_uri").asText()).isEqualTo("plans/kb-docs/cassettes.md");
        JsonNode graph = step(steps, 3).path("writes").path("graph");
        assertThat(graph.path("entities")).isNotEmpty();
        assertThat(graph.path("entities").toString()).contains("cassette");
        assertThat(graph.path("relationships")).isNotEmpty();
        Child withoutLive = child(env, "run", "plans/kb-example.json", "--replay", llmCassette.toString());
        assertThat(withoutLive.exit)
                .as("without --live the retrieval calls have no answer")
                .isEqualTo(1);
    }

    private static JsonNode step(JsonNode steps, int seqNo) {
        for (JsonNode step : steps) {
            if (step.path("seq_no").asInt() == seqNo) {
                return step;
            }
        }
        throw new AssertionError("no step of seq_no " + seqNo + " in " + steps);
    }

    private static String extraction(String entity, String other) {
        return """
                {"entities": [{"name": "%s", "type": "concept", "description": "%s as the text tells it"},
                              {"name": "%s", "type": "concept", "description": "%s as the text tells it"}],
                 "relationships": [{"source": "%s", "target": "%s", "description": "%s relates to %s"}]}""".formatted(entity, entity, other, other, entity, other, entity, other);
    }

    private static Map<String, String> llm(FakeOpenAiServer server) {
        return Map.of(
                "OPENAI_BASE_URL",
                server.baseUrl(),
                "OPENAI_API_KEY",
                "sk-test-kb-0123456789",
                "PLANVM_LLM_TIMEOUT_SECONDS",
                "5");
    }

    /** What retrieve_knowledge_graph answers from knowledge base {@code kb} under {@code root}. */
    private String graphOf(String kb, String root) throws Exception {
        Path config = Files.writeString(
                dir.resolve(kb + ".json"), "{\"knowledge\": {\"kb\": \"" + kb + "\", \"root\": \"" + root + "\"}}");
        Path plan = Files.writeString(dir.resolve("graph.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "retrieve_knowledge_graph",
                   "tool_params": {"query": "placement rules and bread"}, "output_vars": ["graph"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${graph}"}}]""");
        CliRun run = CliRun.of("run", plan.toString(), "--config", config.toString(), "--no-store");
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run.out();
    }

    @Test
    void a_graph_recorded_while_indexing_is_rebuilt_the_same_from_the_cassette_with_no_llm() throws Exception {
        Path docs = docs();
        Path cassette = dir.resolve("graph.cassette.json");
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.reply(extraction("Placement rules", "TiKV"))
                    .reply(extraction("Region", "Replica"))
                    .reply(extraction("Dough", "Bread"));
            CliRun recorded = CliRun.withEnvironment(
                    llm(server),
                    "kb",
                    "index",
                    docs.toString(),
                    "--kb",
                    "notes",
                    "--root",
                    dir.resolve("recorded").toString(),
                    "--graph",
                    "--record",
                    cassette.toString());
            assertThat(recorded.exitCode()).as(recorded.err()).isZero();
            assertThat(server.requestCount()).isEqualTo(3);
        }
        assertThat(JSON.readTree(cassette.toFile()).path("interactions"))
                .hasSize(3)
                .allSatisfy(i -> assertThat(i.path("tool").asText()).isEqualTo("llm_generate"));

        CliRun replayed = CliRun.of(
                "kb",
                "index",
                docs.toString(),
                "--kb",
                "notes",
                "--root",
                dir.resolve("replayed").toString(),
                "--graph",
                "--replay",
                cassette.toString());

        assertThat(replayed.exitCode()).as(replayed.err()).isZero();
        String recordedStats = CliRun.of(
                        "kb", "list", "--root", dir.resolve("recorded").toString())
                .out()
                .split("  updated")[0];
        assertThat(recordedStats).startsWith("notes  2 files  3 chunks  6 entities  3 relationships");
        assertThat(CliRun.of("kb", "list", "--root", dir.resolve("replayed").toString())
                        .out()
                        .split("  updated")[0])
                .isEqualTo(recordedStats);
        String graph = graphOf("notes", dir.resolve("recorded").toString());
        assertThat(graph).contains("Placement rules", "TiKV", "Dough");
        assertThat(graphOf("notes", dir.resolve("replayed").toString())).isEqualTo(graph);
    }

    @Test
    void an_extraction_call_that_fails_once_is_retried_and_no_chunk_loses_its_entities() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
            server.replyStatus(503, "{\"error\": {\"message\": \"overloaded, try again\"}}")
                    .reply(extraction("Placement rules", "TiKV"))
                    .reply(extraction("Region", "Replica"))
                    .reply(extraction("Dough", "Bread"));

            CliRun indexed = CliRun.withEnvironment(
                    llm(server), "kb", "index", docs().toString(), "--kb", "notes", "--root", root(), "--graph");

            assertThat(indexed.exitCode()).as(indexed.err()).isZero();
            assertThat(indexed.err()).doesNotContain("graph failed");
            assertThat(server.requestCount())
                    .as("three chunks, one of them asked twice")
                    .isEqualTo(4);
            assertThat(server.remainingReplies()).isZero();
        }
        assertThat(CliRun.of("kb", "list", "--root", root()).out()).startsWith("notes  2 files  3 chunks  6 entities");
        assertThat(graphOf("notes", root())).contains("Placement rules", "Replica", "Dough");
    }

    private record Child(int exit, String output) {}

    private Child child(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(REPOSITORY.toFile()).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("OPENAI_") || name.startsWith("PLANVM_"));
        builder.environment().putAll(env);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Child(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
