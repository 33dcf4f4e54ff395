package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.knowledge.spi.ChunkHit;
import dev.planvm.knowledge.spi.GraphAnswer;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.knowledge.spi.LlmJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable example: {@code plans/kb-docs} indexed, its graph extracted by replaying
 * {@code plans/kb-docs.graph.cassette.json} (the {@code llm_generate} calls the graph phase makes, matched
 * by exact prompt and context as a cassette matches them), and the searches of {@code plans/kb-example.json}.
 * Fails when the documents, the chunker or the extraction prompt drift from the recorded cassette.
 */
class KbDocsExampleTest {

    static final Path PLANS = Path.of("..", "plans");

    @TempDir
    Path work;

    @Test
    void the_example_documents_index_with_their_recorded_graph_and_answer_the_example_plan() throws Exception {
        JsonNode cassette = new ObjectMapper()
                .readTree(PLANS.resolve("kb-docs.graph.cassette.json").toFile());
        AtomicInteger calls = new AtomicInteger();
        LlmJson replay = (prompt, context, keys) -> {
            calls.incrementAndGet();
            for (JsonNode interaction : cassette.get("interactions")) {
                JsonNode params = interaction.get("params");
                if (interaction.get("tool").asText().equals("llm_generate")
                        && params.get("prompt").asText().equals(prompt)
                        && params.get("context").asText().equals(context)) {
                    return interaction.get("output");
                }
            }
            throw new IllegalStateException("the cassette has no answer for this chunk");
        };
        KnowledgeBases bases = KnowledgeBases.at(work.resolve("kb"));
        IndexReport report = bases.indexer(
                        "planvm-docs",
                        Embedders.local(),
                        IndexSettings.builder().graph(replay, 100).build())
                .index(List.of(PLANS.resolve("kb-docs")), PLANS.getParent(), IndexListener.none());
        assertThat(report.failures()).isEmpty();
        assertThat(report.added()).hasSize(6);
        IndexReport.GraphReport graph = report.graph().orElseThrow();
        assertThat(graph.failures()).isEmpty();
        assertThat(graph.chunksPending()).isZero();
        assertThat(calls.get()).isEqualTo(cassette.get("interactions").size());
        assertThat(graph.dropped()).isZero();

        JsonNode plan =
                new ObjectMapper().readTree(PLANS.resolve("kb-example.json").toFile());
        String question = plan.get(1).get("parameters").get("question").asText();
        try (KnowledgeBase kb = bases.open("planvm-docs", Optional.empty(), QuerySettings.defaults())) {
            List<ChunkHit> hits = kb.search(question, 3, QuerySettings.DEFAULT_TOKEN_BUDGET);
            assertThat(hits.get(0).sourceUri()).isEqualTo("plans/kb-docs/cassettes.md");
            GraphAnswer answer = kb.graph("cassette replay");
            assertThat(answer.entities())
                    .extracting(GraphAnswer.Entity::name)
                    .contains("cassette", "planvm run --replay", "planvm run --record");
            assertThat(answer.relationships()).isNotEmpty();
        }
        assertThat(Files.readString(PLANS.resolve("kb-example.json")))
                .contains("vector_search", "retrieve_knowledge_graph", "llm_generate");
    }
}
