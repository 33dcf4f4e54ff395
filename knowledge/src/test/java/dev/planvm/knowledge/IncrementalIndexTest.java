package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.knowledge.spi.ChunkHit;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Re-indexing is incremental by content hash: only what changed is embedded, and deleted files lose their chunks. */
class IncrementalIndexTest {

    @TempDir
    Path work;

    Path docs;
    KnowledgeBases bases;
    CountingEmbedder embedder;

    @BeforeEach
    void indexOnce() {
        docs = Corpus.writeTo(work.resolve("docs"));
        bases = KnowledgeBases.at(work.resolve("kb"));
        embedder = new CountingEmbedder(Embedders.local());
        index();
        embedder.reset();
    }

    private IndexReport index() {
        return bases.indexer("docs", embedder, IndexSettings.defaults())
                .index(List.of(docs), work, IndexListener.none());
    }

    private List<ChunkHit> search(String query) {
        try (KnowledgeBase kb = bases.open("docs", Optional.empty(), QuerySettings.defaults())) {
            return kb.search(query, 10, QuerySettings.DEFAULT_TOKEN_BUDGET);
        }
    }

    @Test
    void indexing_unchanged_files_again_embeds_nothing() {
        IndexReport again = index();
        assertThat(again.unchanged()).isEqualTo(5);
        assertThat(again.added()).isEmpty();
        assertThat(again.changed()).isEmpty();
        assertThat(again.chunksEmbedded()).isZero();
        assertThat(embedder.texts).isEmpty();
    }

    @Test
    void a_changed_file_re_embeds_only_its_own_changed_chunks() throws Exception {
        Path tides = docs.resolve("tides.md");
        Files.writeString(
                tides,
                Files.readString(tides)
                        .replace(
                                "computed from harmonic constituents measured at that port.",
                                "computed from the harmonic constituents measured at that port over at least a year of observations."));
        IndexReport report = index();
        assertThat(report.changed()).containsExactly("docs/tides.md");
        assertThat(report.unchanged()).isEqualTo(4);
        assertThat(report.chunksEmbedded()).isEqualTo(1);
        assertThat(report.chunksReused()).isEqualTo(3);
        assertThat(embedder.texts)
                .singleElement()
                .asString()
                .contains("a year of observations")
                .contains("Tide tables");
        assertThat(search("how long are tide observations made for harmonic constituents")
                        .get(0)
                        .content())
                .contains("at least a year of observations");
    }

    @Test
    void a_rewritten_file_has_all_its_chunks_embedded_and_no_other_file_is_touched() throws Exception {
        Files.writeString(
                docs.resolve("volcanoes.txt"), "Geysers\n\nA geyser spouts boiling water heated by magma deep below.");
        IndexReport report = index();
        assertThat(report.changed()).containsExactly("docs/volcanoes.txt");
        assertThat(report.chunksEmbedded()).isEqualTo(1);
        assertThat(embedder.texts).allSatisfy(text -> assertThat(text).contains("geyser"));
        assertThat(search("molten rock and tectonic plates"))
                .noneMatch(hit -> hit.content().contains("Hawaii"));
    }

    @Test
    void a_deleted_file_loses_its_chunks() throws Exception {
        Files.delete(docs.resolve("chess.html"));
        IndexReport report = index();
        assertThat(report.removed()).containsExactly("docs/chess.html");
        assertThat(search("king's pawn opening"))
                .noneMatch(hit -> hit.sourceUri().equals("docs/chess.html"));
        assertThat(bases.stats("docs").files()).isEqualTo(4);
    }

    @Test
    void a_new_file_is_added_without_touching_the_others() throws Exception {
        Files.writeString(
                docs.resolve("comets.md"), "# Comets\n\nComets are icy bodies that grow tails near the Sun.\n");
        IndexReport report = index();
        assertThat(report.added()).containsExactly("docs/comets.md");
        assertThat(report.unchanged()).isEqualTo(5);
        assertThat(embedder.texts).singleElement().asString().contains("icy bodies");
        assertThat(search("icy bodies with tails").get(0).sourceUri()).isEqualTo("docs/comets.md");
    }

    @Test
    void indexing_one_file_does_not_remove_the_files_of_other_paths() {
        IndexReport report = bases.indexer("docs", embedder, IndexSettings.defaults())
                .index(List.of(docs.resolve("tides.md")), work, IndexListener.none());
        assertThat(report.removed()).isEmpty();
        assertThat(report.unchanged()).isEqualTo(1);
        assertThat(bases.stats("docs").files()).isEqualTo(5);
    }

    @Test
    void new_chunking_settings_re_chunk_every_file() {
        IndexReport report = bases.indexer(
                        "docs",
                        embedder,
                        IndexSettings.builder().chunking(64, 8).build())
                .index(List.of(docs), work, IndexListener.none());
        assertThat(report.changed()).hasSize(5);
        try (KnowledgeBase kb = bases.open("docs", Optional.empty(), QuerySettings.defaults())) {
            assertThat(kb.search("tides", 100, 1_000_000))
                    .allSatisfy(hit -> assertThat(hit.tokens()).isLessThanOrEqualTo(64));
        }
    }

    @Test
    void the_listener_sees_each_phase_and_every_file() throws Exception {
        Files.writeString(docs.resolve("tides.md"), "# Tides\n\nChanged.\n");
        List<String> events = new ArrayList<>();
        bases.indexer("docs", embedder, IndexSettings.defaults()).index(List.of(docs), work, new IndexListener() {
            @Override
            public void started(Phase phase, int total) {
                events.add("start " + phase + " " + total);
            }

            @Override
            public void advanced(Phase phase, int done, String item) {
                events.add(done + " " + item);
                if (done == 2) {
                    throw new IllegalStateException("a broken listener does not stop the run");
                }
            }

            @Override
            public void finished(Phase phase) {
                events.add("end " + phase);
            }
        });
        assertThat(events)
                .containsExactly(
                        "start SCAN -1",
                        "end SCAN",
                        "start EMBED 5",
                        "1 docs/bees.pdf",
                        "2 docs/chess.html",
                        "3 docs/sourdough.md",
                        "4 docs/tides.md",
                        "5 docs/volcanoes.txt",
                        "end EMBED");
    }

    @Test
    void unreadable_and_oversized_files_are_reported_and_the_rest_is_indexed() throws Exception {
        Files.write(docs.resolve("broken.pdf"), "%PDF-1.4 garbage".getBytes());
        Files.writeString(docs.resolve("huge.txt"), "y".repeat(3000));
        IndexReport report = bases.indexer(
                        "docs",
                        embedder,
                        IndexSettings.builder()
                                .limits(2000, 5_000_000, 2000, 5000, 1000)
                                .build())
                .index(List.of(docs, work.resolve("missing")), work, IndexListener.none());
        assertThat(report.failures())
                .extracting(IndexReport.Problem::toString)
                .containsExactlyInAnyOrder(
                        work.resolve("missing") + ": does not exist",
                        "docs/huge.txt: is larger than the limit of 2000 bytes",
                        "docs/broken.pdf: cannot be read as PDF: Missing root object specification in trailer.");
        assertThat(report.failures())
                .allSatisfy(problem -> assertThat(problem.message()).doesNotContain("\n"));
        assertThat(report.summary()).contains("3 failed");
    }
}
