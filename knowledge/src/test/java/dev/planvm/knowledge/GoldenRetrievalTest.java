package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.knowledge.spi.ChunkHit;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexReport;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden retrieval: the fixed corpus (Markdown, text, HTML and PDF) indexed with the in-process model; for
 * each query of {@code golden-queries.json} the best chunk comes from the expected source and section.
 */
class GoldenRetrievalTest {

    @TempDir
    static Path work;

    static KnowledgeBase kb;
    static IndexReport report;

    @BeforeAll
    static void index() {
        Corpus.writeTo(work.resolve("docs"));
        KnowledgeBases bases = KnowledgeBases.at(work.resolve("kb"));
        report = bases.indexer("docs", Embedders.local(), IndexSettings.defaults())
                .index(List.of(work.resolve("docs")), work, IndexListener.none());
        kb = bases.open("docs", java.util.Optional.empty(), QuerySettings.defaults());
    }

    @AfterAll
    static void close() {
        kb.close();
    }

    static Stream<JsonNode> goldenQueries() throws Exception {
        try (InputStream in = GoldenRetrievalTest.class.getResourceAsStream("/golden-queries.json")) {
            List<JsonNode> queries = new ArrayList<>();
            new ObjectMapper().readTree(in).forEach(queries::add);
            return queries.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenQueries")
    void the_best_chunk_comes_from_the_expected_section(JsonNode golden) {
        List<ChunkHit> hits = kb.search(golden.get("query").asText(), 3, QuerySettings.DEFAULT_TOKEN_BUDGET);
        assertThat(hits).isNotEmpty();
        ChunkHit best = hits.get(0);
        assertThat(best.sourceUri()).isEqualTo(golden.get("source").asText());
        assertThat(best.heading()).isEqualTo(golden.get("heading").asText());
    }

    @Test
    void every_document_type_of_the_corpus_was_indexed() {
        assertThat(report.added())
                .containsExactly(
                        "docs/bees.pdf", "docs/chess.html", "docs/sourdough.md", "docs/tides.md", "docs/volcanoes.txt");
        assertThat(report.failures()).isEmpty();
        assertThat(report.chunksEmbedded()).isEqualTo(report.chunksTotal()).isPositive();
    }

    @Test
    void hits_come_best_first_with_stackvm_shape_and_exact_offsets() {
        List<ChunkHit> hits = kb.search("sourdough starter", 5, QuerySettings.DEFAULT_TOKEN_BUDGET);
        assertThat(hits).hasSize(5);
        for (int i = 1; i < hits.size(); i++) {
            assertThat(hits.get(i).score()).isLessThanOrEqualTo(hits.get(i - 1).score());
        }
        JsonNode json = hits.get(0).toJson();
        assertThat(json.fieldNames())
                .toIterable()
                .containsExactly("content", "source_uri", "score", "chunk_id", "meta");
        assertThat(json.get("chunk_id").asText()).startsWith("docs/sourdough.md#");
        assertThat(json.get("meta").get("title").asText()).isEqualTo("Baking Sourdough Bread");
        assertThat(hits.get(0).end() - hits.get(0).start())
                .isEqualTo(hits.get(0).content().length());
    }

    @Test
    void the_html_script_is_not_searchable() {
        List<ChunkHit> hits = kb.search("zebra quokka", 10, QuerySettings.DEFAULT_TOKEN_BUDGET);
        assertThat(hits).allSatisfy(hit -> assertThat(hit.content()).doesNotContain("zebra"));
    }

    @Test
    void the_token_budget_keeps_the_best_chunks_that_fit() {
        List<ChunkHit> all = kb.search("bread", 5, QuerySettings.DEFAULT_TOKEN_BUDGET);
        int firstTwo = all.get(0).tokens() + all.get(1).tokens();
        List<ChunkHit> budgeted = kb.search("bread", 5, firstTwo);
        assertThat(budgeted)
                .extracting(ChunkHit::chunkId)
                .containsExactly(all.get(0).chunkId(), all.get(1).chunkId());
    }
}
