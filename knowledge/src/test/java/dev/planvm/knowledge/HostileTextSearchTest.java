package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.knowledge.internal.ChunkRecord;
import dev.planvm.knowledge.internal.ChunkWriter;
import dev.planvm.knowledge.internal.Chunker;
import dev.planvm.knowledge.internal.KbPaths;
import dev.planvm.knowledge.internal.Vectors;
import dev.planvm.knowledge.spi.ChunkHit;
import dev.planvm.knowledge.spi.IndexListener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run of text without whitespace, indexed and searched: the token budget holds what a search returns. */
class HostileTextSearchTest {

    @TempDir
    Path work;

    @Test
    void a_search_returns_no_more_text_than_its_token_budget_holds_of_a_run_without_whitespace() throws Exception {
        Path docs = Files.createDirectories(work.resolve("docs"));
        Files.writeString(docs.resolve("run.txt"), "x".repeat(100_000));
        Files.writeString(docs.resolve("tides.md"), "# Tides\nTide tables are computed from harmonic constituents.\n");
        KnowledgeBases bases = KnowledgeBases.at(work.resolve("kb"));
        bases.indexer("docs", Embedders.local(), IndexSettings.defaults())
                .index(List.of(docs), work, IndexListener.none());

        try (KnowledgeBase kb = bases.open("docs", Optional.empty(), QuerySettings.defaults())) {
            List<ChunkHit> hits = kb.search("xxxxxxxxxxxxxxxx", 5, 300);
            assertThat(hits).isNotEmpty();
            assertThat(hits.stream().mapToInt(ChunkHit::tokens).sum()).isLessThanOrEqualTo(300);
            assertThat(hits.stream().mapToInt(hit -> hit.content().length()).sum())
                    .as("what the hits hold")
                    .isLessThanOrEqualTo(300 * Chunker.MAX_CHARS_PER_TOKEN);
            assertThat(hits)
                    .allSatisfy(hit -> assertThat(hit.tokens())
                            .isGreaterThanOrEqualTo(hit.content().length() / Chunker.MAX_CHARS_PER_TOKEN));
        }
    }

    @Test
    void a_chunk_stored_by_an_earlier_version_counts_at_least_by_its_size_against_the_budget() throws Exception {
        Path docs = Files.createDirectories(work.resolve("docs"));
        Files.writeString(docs.resolve("tides.md"), "# Tides\nTide tables are computed from harmonic constituents.\n");
        KnowledgeBases bases = KnowledgeBases.at(work.resolve("kb"));
        bases.indexer("docs", Embedders.local(), IndexSettings.defaults())
                .index(List.of(docs), work, IndexListener.none());
        // as planvm stored a run without whitespace before chunks were capped: 100,000 characters, 2 tokens
        String query = "yyyyyyyyyyyyyyyy";
        float[] vector =
                Vectors.normalized(Embedders.local().embed(List.of(query)).get(0));
        try (ChunkWriter writer = new ChunkWriter(KbPaths.index(work.resolve("kb/docs")), "docs", 16, 100)) {
            String run = "y".repeat(100_000);
            writer.addChunk(
                    new ChunkRecord("docs/run.txt#0", "docs/run.txt", 0, "run", "", 0, run.length(), 2, run, "h"),
                    vector);
            writer.commit(Map.of());
        }

        try (KnowledgeBase kb = bases.open("docs", Optional.empty(), QuerySettings.defaults())) {
            assertThat(kb.search(query, 5, 100_000))
                    .as("the chunk is there")
                    .anySatisfy(hit -> assertThat(hit.content()).hasSize(100_000));
            List<ChunkHit> hits = kb.search(query, 5, 300);
            assertThat(hits.stream().mapToInt(hit -> hit.content().length()).sum())
                    .isLessThanOrEqualTo(300 * Chunker.MAX_CHARS_PER_TOKEN);
        }
    }
}
