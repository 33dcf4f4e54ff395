package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A missing, foreign, damaged or mismatched knowledge base is reported in one sentence, never a stack trace. */
class KnowledgeBaseErrorsTest {

    @TempDir
    Path work;

    KnowledgeBases bases;

    @BeforeEach
    void setUp() {
        bases = KnowledgeBases.at(work.resolve("kb"));
    }

    private void buildDocs() throws IOException {
        Path docs = work.resolve("docs");
        Files.createDirectories(docs);
        Files.writeString(docs.resolve("a.md"), "# A\n\nAlpha text about apples.\n");
        Files.writeString(docs.resolve("b.md"), "# B\n\nBeta text about bananas.\n");
        bases.indexer("docs", Embedders.local(), IndexSettings.defaults())
                .index(List.of(docs), work, IndexListener.none());
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertOneSentence(Runnable action) {
        return assertThatThrownBy(action::run)
                .isInstanceOf(KnowledgeException.class)
                .hasMessageNotContaining("\n")
                .hasMessageNotContaining("Exception")
                .hasMessageNotContaining("\tat ");
    }

    private void openAndSearch(String name) {
        try (KnowledgeBase kb = bases.open(name, Optional.empty(), QuerySettings.defaults())) {
            kb.search("apples", 5, 1000);
        }
    }

    @Test
    void a_missing_knowledge_base_says_how_to_build_it() {
        assertOneSentence(() -> openAndSearch("nope"))
                .hasMessageStartingWith("there is no knowledge base 'nope' at ")
                .hasMessageEndingWith("index documents into it with `planvm kb index PATH... --kb nope`");
    }

    @Test
    void a_directory_without_kb_json_is_not_a_knowledge_base() throws IOException {
        Files.createDirectories(work.resolve("kb/stray"));
        assertOneSentence(() -> openAndSearch("stray"))
                .hasMessageEndingWith("is not a planvm knowledge base (it has no kb.json)");
    }

    @Test
    void a_foreign_store_format_is_refused() throws IOException {
        buildDocs();
        Path manifest = work.resolve("kb/docs/kb.json");
        Files.writeString(manifest, Files.readString(manifest).replace("planvm-kb/1", "planvm-kb/9"));
        assertOneSentence(() -> openAndSearch("docs"))
                .hasMessageContaining("has store format 'planvm-kb/9', but this planvm reads planvm-kb/1");
    }

    @Test
    void a_kb_json_that_is_not_json_is_damaged() throws IOException {
        buildDocs();
        Files.writeString(work.resolve("kb/docs/kb.json"), "{ \"format\": ");
        assertOneSentence(() -> openAndSearch("docs")).hasMessageStartingWith("knowledge base 'docs' is damaged: ");
    }

    @Test
    void a_kb_json_missing_a_field_is_damaged() throws IOException {
        buildDocs();
        Path manifest = work.resolve("kb/docs/kb.json");
        Files.writeString(manifest, Files.readString(manifest).replace("\"dimension\"", "\"dimensions\""));
        assertOneSentence(() -> openAndSearch("docs")).hasMessageContaining("at /embedding/dimension holds no count");
    }

    @Test
    void a_missing_index_is_reported() throws IOException {
        buildDocs();
        deleteTree(work.resolve("kb/docs/index"));
        assertOneSentence(() -> openAndSearch("docs")).hasMessageContaining("knowledge base 'docs' has no index at");
    }

    @Test
    void truncated_index_files_are_reported_as_damage() throws IOException {
        buildDocs();
        try (Stream<Path> files = Files.list(work.resolve("kb/docs/index"))) {
            for (Path file : files.filter(f -> !f.getFileName().toString().equals("write.lock"))
                    .toList()) {
                byte[] bytes = Files.readAllBytes(file);
                Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
            }
        }
        assertOneSentence(() -> openAndSearch("docs"))
                .hasMessageStartingWith("knowledge base 'docs' is damaged (")
                .hasMessageEndingWith("remove it with `planvm kb remove` and index the documents again");
    }

    @Test
    void garbage_in_the_segments_file_is_reported_as_damage() throws IOException {
        buildDocs();
        try (Stream<Path> files = Files.list(work.resolve("kb/docs/index"))) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("segments_"))
                    .toList()) {
                Files.write(file, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20});
            }
        }
        assertOneSentence(() -> openAndSearch("docs")).hasMessageStartingWith("knowledge base 'docs' is damaged (");
    }

    @Test
    void querying_with_another_model_is_refused() throws IOException {
        buildDocs();
        Embedder other = new Embedder() {
            @Override
            public String model() {
                return "openai-compatible/text-embedding-3-small";
            }

            @Override
            public List<float[]> embed(List<String> texts) {
                throw new AssertionError("must not be asked");
            }
        };
        assertOneSentence(() -> KnowledgeBase.open(bases.directory("docs"), "docs", other, QuerySettings.defaults()))
                .hasMessage(
                        "knowledge base 'docs' was built with embedding model 'all-MiniLM-L6-v2-q' but the configured model "
                                + "is 'openai-compatible/text-embedding-3-small': configure the same model, or index into a new knowledge base");
        assertOneSentence(() -> bases.indexer("docs", other, IndexSettings.defaults())
                        .index(List.of(work.resolve("docs")), work, IndexListener.none()))
                .hasMessageContaining("was built with embedding model 'all-MiniLM-L6-v2-q'");
    }

    @Test
    void a_remote_model_without_a_configured_endpoint_says_what_to_set() {
        assertOneSentence(() -> Embedders.forModel("web", "openai-compatible/nomic-embed-text", Optional.empty()))
                .hasMessageContaining("set PLANVM_EMBEDDINGS_BASE_URL (and PLANVM_EMBEDDINGS_MODEL=nomic-embed-text)");
    }

    @Test
    void names_that_could_escape_the_root_are_refused() {
        for (String name : List.of("../etc", "a/b", ".hidden", "", "x".repeat(65))) {
            assertOneSentence(() -> bases.directory(name)).hasMessageContaining("is not a knowledge base name");
        }
    }

    @Test
    void indexing_into_a_directory_that_is_not_a_knowledge_base_is_refused_and_touches_nothing() throws IOException {
        Path stray = work.resolve("kb/stray");
        Files.createDirectories(stray);
        Files.writeString(stray.resolve("precious.txt"), "keep me");
        assertOneSentence(() -> bases.indexer("stray", Embedders.local(), IndexSettings.defaults())
                        .index(List.of(work), work, IndexListener.none()))
                .hasMessageContaining("exists and is not a planvm knowledge base");
        assertOneSentence(() -> bases.remove("stray")).hasMessageContaining("is not a planvm knowledge base");
        assertThat(stray.resolve("precious.txt")).hasContent("keep me");
    }

    @Test
    void list_shows_a_broken_knowledge_base_with_its_problem_and_remove_deletes_one() throws IOException {
        buildDocs();
        Path manifest = work.resolve("kb/docs/kb.json");
        Files.writeString(manifest, Files.readString(manifest).replace("planvm-kb/1", "planvm-kb/0"));
        assertThat(bases.list()).singleElement().satisfies(stats -> {
            assertThat(stats.name()).isEqualTo("docs");
            assertThat(stats.problem()).hasValueSatisfying(p -> assertThat(p).contains("planvm-kb/0"));
        });
        Files.writeString(manifest, Files.readString(manifest).replace("planvm-kb/0", "planvm-kb/1"));
        assertThat(bases.list()).singleElement().satisfies(stats -> {
            assertThat(stats.files()).isEqualTo(2);
            assertThat(stats.chunks()).isEqualTo(2);
            assertThat(stats.model()).isEqualTo("all-MiniLM-L6-v2-q");
            assertThat(stats.dimension()).isEqualTo(384);
            assertThat(stats.updated()).isNotNull();
        });
        bases.remove("docs");
        assertThat(work.resolve("kb/docs")).doesNotExist();
        assertThat(bases.names()).isEmpty();
    }

    @Test
    void invalid_settings_are_refused_in_one_sentence() {
        assertOneSentence(() -> IndexSettings.builder().chunking(8, 0).build())
                .hasMessage("the chunk size must be 16 to 2048 tokens, not 8");
        assertOneSentence(() -> IndexSettings.builder().chunking(100, 60).build())
                .hasMessage("the overlap must be 0 to half the chunk size (50 tokens), not 60");
        assertOneSentence(() -> QuerySettings.defaults().withTopK(0)).hasMessage("top_k must be 1 to 100, not 0");
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
