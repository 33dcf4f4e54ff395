package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.knowledge.internal.Extraction;
import dev.planvm.knowledge.spi.GraphAnswer;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.knowledge.spi.LlmJson;
import dev.planvm.knowledge.testing.ReplayLlm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The knowledge graph: extraction replayed from recorded answers, entities merged, queried by expansion. */
class GraphExtractionTest {

    @TempDir
    Path work;

    Path docs;
    KnowledgeBases bases;
    ReplayLlm llm;

    @BeforeEach
    void setUp() throws IOException {
        docs = work.resolve("graph");
        Files.createDirectories(docs);
        for (String name : List.of("planvm.md", "lucene.md", "stackvm.md")) {
            try (InputStream in = getClass().getResourceAsStream("/graph/" + name)) {
                Files.write(docs.resolve(name), in.readAllBytes());
            }
        }
        bases = KnowledgeBases.at(work.resolve("kb"));
        llm = new ReplayLlm("/graph-answers.json");
    }

    private IndexReport index(LlmJson extractor, int maxCalls) {
        return bases.indexer(
                        "g",
                        Embedders.local(),
                        IndexSettings.builder().graph(extractor, maxCalls).build())
                .index(List.of(docs), work, IndexListener.none());
    }

    private KnowledgeBase open(QuerySettings settings) {
        return bases.open("g", Optional.empty(), settings);
    }

    private static Map<String, GraphAnswer.Entity> byName(GraphAnswer answer) {
        return answer.entities().stream().collect(Collectors.toMap(GraphAnswer.Entity::name, Function.identity()));
    }

    @Test
    void extraction_asks_once_per_chunk_with_the_prompt_keys_and_chunk_as_context() {
        IndexReport report = index(llm, 100);
        assertThat(report.graph()).hasValueSatisfying(graph -> {
            assertThat(graph.llmCalls()).isEqualTo(3);
            assertThat(graph.chunksPending()).isZero();
            assertThat(graph.failures()).isEmpty();
        });
        assertThat(llm.prompts).containsOnly(Extraction.PROMPT);
        assertThat(llm.keys).containsOnly(List.of("entities", "relationships"));
        assertThat(llm.contexts)
                .anySatisfy(context -> assertThat(context)
                        .startsWith("Document: Lucene\n\n# Lucene\n\nApache Lucene is a search library"));
    }

    @Test
    void entities_are_merged_by_normalised_name_across_chunks() {
        IndexReport report = index(llm, 100);
        IndexReport.GraphReport graph = report.graph().orElseThrow();
        assertThat(graph.entities()).isEqualTo(7);
        assertThat(graph.relationships()).isEqualTo(7);
        assertThat(graph.dropped()).as("Faiss is no entity").isEqualTo(1);
        try (KnowledgeBase kb = open(QuerySettings.defaults().withGraph(20, 0, 50, 100))) {
            Map<String, GraphAnswer.Entity> entities = byName(kb.graph("anything"));
            assertThat(entities)
                    .containsOnlyKeys("planvm", "StackVM plans", "Java", "Lucene", "HNSW", "LLM agents", "TiDB");
            assertThat(entities.get("StackVM plans").description())
                    .isEqualTo("The plans planvm runs. JSON programs that LLM agents emit.");
            assertThat(entities.get("Java").description())
                    .isEqualTo("The language Lucene is written in. The language planvm is written in.");
            assertThat(entities.get("Lucene").description())
                    .isEqualTo("A search library written in Java. Holds the knowledge bases of planvm.");
        }
    }

    @Test
    void the_query_expands_from_the_nearest_entity_along_relationships_to_the_depth() {
        index(llm, 100);
        QuerySettings oneSeed = QuerySettings.defaults().withGraph(1, 1, 50, 100);
        try (KnowledgeBase kb = open(oneSeed)) {
            GraphAnswer depth0 = kb.graph("TiDB", 0);
            assertThat(depth0.entities()).extracting(GraphAnswer.Entity::name).containsExactly("TiDB");
            assertThat(depth0.relationships()).isEmpty();

            GraphAnswer depth1 = kb.graph("TiDB", 1);
            assertThat(depth1.entities()).extracting(GraphAnswer.Entity::name).containsExactly("TiDB", "StackVM plans");
            assertThat(depth1.relationships()).singleElement().satisfies(r -> {
                assertThat(r.sourceEntityId())
                        .isEqualTo(depth1.entities().get(0).id());
                assertThat(r.targetEntityId())
                        .isEqualTo(depth1.entities().get(1).id());
                assertThat(r.description()).isEqualTo("The TiDB documentation assistant runs StackVM plans");
            });

            GraphAnswer depth2 = kb.graph("TiDB", 2);
            assertThat(depth2.entities())
                    .extracting(GraphAnswer.Entity::name)
                    .containsExactlyInAnyOrder("TiDB", "StackVM plans", "planvm", "LLM agents");
            assertThat(depth2.relationships()).hasSize(3);

            GraphAnswer depth3 = kb.graph("TiDB", 3);
            assertThat(depth3.entities())
                    .extracting(GraphAnswer.Entity::name)
                    .contains("Java", "Lucene")
                    .doesNotContain("HNSW");
        }
    }

    @Test
    void the_answer_is_bounded_and_has_stackvm_shape() {
        index(llm, 100);
        try (KnowledgeBase kb = open(QuerySettings.defaults().withGraph(1, 5, 2, 100))) {
            GraphAnswer answer = kb.graph("TiDB");
            assertThat(answer.entities()).hasSize(2);
            assertThat(answer.relationships())
                    .allSatisfy(r -> assertThat(answer.entities())
                            .extracting(GraphAnswer.Entity::id)
                            .contains(r.sourceEntityId(), r.targetEntityId()));
            JsonNode json = answer.toJson();
            assertThat(json.fieldNames()).toIterable().containsExactly("entities", "relationships");
            assertThat(json.get("entities").get(0).fieldNames())
                    .toIterable()
                    .containsExactly("id", "name", "description");
            assertThat(json.get("relationships").get(0).fieldNames())
                    .toIterable()
                    .containsExactly("source_entity_id", "target_entity_id", "description");
            assertThat(json.get("entities").get(0).get("id").isIntegralNumber()).isTrue();
        }
    }

    @Test
    void the_llm_call_budget_leaves_chunks_for_the_next_run() {
        IndexReport first = index(llm, 1);
        assertThat(first.graph().orElseThrow().llmCalls()).isEqualTo(1);
        assertThat(first.graph().orElseThrow().chunksPending()).isEqualTo(2);
        IndexReport second = index(llm, 100);
        assertThat(second.graph().orElseThrow().llmCalls()).isEqualTo(2);
        assertThat(second.graph().orElseThrow().chunksPending()).isZero();
        assertThat(second.graph().orElseThrow().entities()).isEqualTo(7);
        IndexReport third = index(llm, 100);
        assertThat(third.graph().orElseThrow().llmCalls()).isZero();
        assertThat(third.graph().orElseThrow().entitiesEmbedded())
                .as("unchanged descriptions keep their vectors")
                .isZero();
        assertThat(llm.contexts).hasSize(3);
    }

    @Test
    void a_changed_file_is_extracted_again_and_its_old_entities_go() throws IOException {
        index(llm, 100);
        Files.writeString(
                docs.resolve("stackvm.md"), "# StackVM\n\nStackVM plans are JSON programs. Nothing else here.\n");
        LlmJson changed = (prompt, context, keys) -> {
            assertThat(context).contains("Nothing else here");
            return TextNode.valueOf("{\"entities\": [{\"name\": \"StackVM plans\", \"type\": \"format\", "
                    + "\"description\": \"JSON programs\"}], \"relationships\": []}");
        };
        IndexReport report = index(changed, 100);
        assertThat(report.graph().orElseThrow().llmCalls()).isEqualTo(1);
        try (KnowledgeBase kb = open(QuerySettings.defaults().withGraph(20, 0, 50, 100))) {
            assertThat(byName(kb.graph("x")))
                    .doesNotContainKeys("TiDB", "LLM agents")
                    .containsKey("StackVM plans");
        }
    }

    @Test
    void failed_or_unusable_answers_are_reported_and_retried_by_the_next_run() {
        LlmJson broken = (prompt, context, keys) -> {
            if (context.contains("Lucene is a search library")) {
                throw new IllegalStateException("the LLM server answered HTTP 500");
            }
            return TextNode.valueOf("I cannot help with that.");
        };
        IndexReport report = index(broken, 100);
        IndexReport.GraphReport graph = report.graph().orElseThrow();
        assertThat(graph.chunksPending()).isEqualTo(3);
        assertThat(graph.failures())
                .extracting(IndexReport.Problem::toString)
                .containsExactlyInAnyOrder(
                        "graph/lucene.md#0: the extraction call failed: the LLM server answered HTTP 500",
                        "graph/planvm.md#0: the LLM's answer holds no JSON object with an \"entities\" array",
                        "graph/stackvm.md#0: the LLM's answer holds no JSON object with an \"entities\" array");
        assertThat(index(llm, 100).graph().orElseThrow().entities()).isEqualTo(7);
    }

    @Test
    void a_knowledge_base_without_a_graph_says_how_to_build_one() throws IOException {
        bases.indexer("g", Embedders.local(), IndexSettings.defaults())
                .index(List.of(docs), work, IndexListener.none());
        try (KnowledgeBase kb = open(QuerySettings.defaults())) {
            assertThat(kb.hasGraph()).isFalse();
            assertThatThrownBy(() -> kb.graph("x"))
                    .isInstanceOf(KnowledgeException.class)
                    .hasMessage("knowledge base 'g' has no knowledge graph: build one with "
                            + "`planvm kb index PATH... --kb g --graph` (it needs an LLM)");
        }
    }
}
