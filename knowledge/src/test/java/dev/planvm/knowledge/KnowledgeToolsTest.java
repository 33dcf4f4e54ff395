package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.testing.FakeEmbeddingsServer;
import dev.planvm.knowledge.testing.ReplayLlm;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tools and their provider, as the VM sees them: configured through ToolSetup, called with JSON params. */
class KnowledgeToolsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;

    @BeforeAll
    static void buildKnowledgeBases() throws Exception {
        Corpus.writeTo(work.resolve("docs"));
        KnowledgeBases bases = KnowledgeBases.at(work.resolve(".planvm/kb"));
        bases.indexer("docs", Embedders.local(), IndexSettings.defaults())
                .index(List.of(work.resolve("docs")), work, IndexListener.none());
        Path graphDocs = work.resolve("graph");
        Files.createDirectories(graphDocs);
        for (String name : List.of("planvm.md", "lucene.md", "stackvm.md")) {
            try (InputStream in = KnowledgeToolsTest.class.getResourceAsStream("/graph/" + name)) {
                Files.write(graphDocs.resolve(name), in.readAllBytes());
            }
        }
        bases.indexer(
                        "g",
                        Embedders.local(),
                        IndexSettings.builder()
                                .graph(new ReplayLlm("/graph-answers.json"), 10)
                                .build())
                .index(List.of(graphDocs), work, IndexListener.none());
    }

    static ToolSetup setup(String sectionJson) throws Exception {
        return setup(sectionJson, Map.of(), Map.of());
    }

    static ToolSetup setup(String sectionJson, Map<String, String> environment, Map<String, String> secrets)
            throws Exception {
        Map<String, JsonNode> config = sectionJson == null ? Map.of() : Map.of("knowledge", JSON.readTree(sectionJson));
        return new ToolSetup(environment, config, work, secrets);
    }

    static Map<String, Tool> byName(List<Tool> tools) {
        return tools.stream().collect(Collectors.toMap(Tool::name, Function.identity()));
    }

    static JsonNode call(Tool tool, String params) throws Exception {
        return tool.invoke(JSON.readTree(params), CallContext.of(3));
    }

    @Test
    void the_provider_is_found_by_service_loader_and_claims_the_knowledge_section() {
        List<ToolProvider> providers = new ArrayList<>();
        ServiceLoader.load(ToolProvider.class).forEach(providers::add);
        assertThat(providers).hasAtLeastOneElementOfType(KnowledgeToolProvider.class);
        JsonNode schema = new KnowledgeToolProvider().configSections().get("knowledge");
        assertThat(schema.get("required")).containsExactly(JSON.getNodeFactory().textNode("kb"));
    }

    @Test
    void without_a_knowledge_section_it_offers_nothing_and_says_how_to_configure() throws Exception {
        try (ToolSetup setup = setup(null)) {
            assertThat(new KnowledgeToolProvider().tools(setup)).isEmpty();
            assertThat(setup.problems()).isEmpty();
        }
        assertThat(new KnowledgeToolProvider().unavailable(Map.of()))
                .containsOnlyKeys("vector_search", "retrieve_knowledge_graph")
                .allSatisfy((name, why) -> assertThat(why)
                        .contains("\"knowledge\": {\"kb\": \"NAME\"}")
                        .contains("--kb NAME"));
    }

    @Test
    void a_configured_knowledge_base_gives_both_read_only_tools() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"docs\"}")) {
            Map<String, Tool> tools = byName(new KnowledgeToolProvider().tools(setup));
            assertThat(setup.problems()).isEmpty();
            assertThat(tools).containsOnlyKeys("vector_search", "retrieve_knowledge_graph");
            assertThat(tools.values()).noneMatch(Tool::hasSideEffects);
            assertThat(tools.get("vector_search").description()).contains("knowledge base 'docs'");
        }
    }

    @Test
    void vector_search_answers_stackvm_shaped_chunks_best_first() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"docs\"}")) {
            Tool search = byName(new KnowledgeToolProvider().tools(setup)).get("vector_search");
            JsonNode hits = call(search, "{\"query\": \"how do bees make honey\", \"top_k\": 3}");
            assertThat(hits).hasSize(3);
            assertThat(hits.get(0).get("source_uri").asText()).isEqualTo("docs/bees.pdf");
            assertThat(hits.get(0).fieldNames())
                    .toIterable()
                    .containsExactly("content", "source_uri", "score", "chunk_id", "meta");
            assertThat(hits.get(0).get("score").asDouble())
                    .isGreaterThan(hits.get(2).get("score").asDouble());
        }
    }

    @Test
    void top_k_defaults_to_the_configured_value_and_the_token_budget_is_kept() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"docs\", \"top_k\": 4, \"token_budget\": 100000}")) {
            Tool search = byName(new KnowledgeToolProvider().tools(setup)).get("vector_search");
            JsonNode four = call(search, "{\"query\": \"volcano\"}");
            assertThat(four).hasSize(4);
            int firstTokens = four.get(0).get("meta").get("tokens").asInt();
            assertThat(call(search, "{\"query\": \"volcano\", \"token_budget\": " + firstTokens + "}"))
                    .hasSize(1);
        }
    }

    @Test
    void the_params_schema_requires_a_query_and_bounds_top_k() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"docs\"}")) {
            for (Tool tool : new KnowledgeToolProvider().tools(setup)) {
                var schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                        .getSchema(tool.paramsSchema());
                assertThat(schema.validate(JSON.readTree("{\"query\": \"q\"}"))).isEmpty();
                List<Error> missing = schema.validate(JSON.readTree("{\"top_k\": 3}"));
                assertThat(missing).isNotEmpty();
                if (tool.name().equals("vector_search")) {
                    assertThat(schema.validate(JSON.readTree("{\"query\": \"q\", \"top_k\": 1000}")))
                            .isNotEmpty();
                    assertThat(schema.validate(JSON.readTree("{\"query\": \"q\", \"top_k\": 5}")))
                            .isEmpty();
                }
            }
        }
    }

    @Test
    void a_blank_query_fails_without_retry() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"docs\"}")) {
            Tool search = byName(new KnowledgeToolProvider().tools(setup)).get("vector_search");
            assertThatThrownBy(() -> call(search, "{\"query\": \"   \"}"))
                    .isInstanceOfSatisfying(
                            ToolException.class, e -> assertThat(e.retriable()).isFalse())
                    .hasMessage("vector_search needs a non-empty 'query'");
        }
    }

    @Test
    void retrieve_knowledge_graph_answers_entities_and_relationships() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"g\", \"graph_depth\": 1}")) {
            Tool graph = byName(new KnowledgeToolProvider().tools(setup)).get("retrieve_knowledge_graph");
            JsonNode answer = call(graph, "{\"query\": \"TiDB\"}");
            assertThat(answer.get("entities").size()).isGreaterThanOrEqualTo(2);
            assertThat(answer.get("relationships").size()).isGreaterThanOrEqualTo(1);
            assertThat(answer.get("entities").findValuesAsText("name")).contains("TiDB", "StackVM plans");
        }
    }

    @Test
    void retrieve_knowledge_graph_on_a_knowledge_base_without_graph_fails_with_a_sentence() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"docs\"}")) {
            Tool graph = byName(new KnowledgeToolProvider().tools(setup)).get("retrieve_knowledge_graph");
            assertThatThrownBy(() -> call(graph, "{\"query\": \"x\"}"))
                    .isInstanceOfSatisfying(
                            ToolException.class, e -> assertThat(e.retriable()).isFalse())
                    .hasMessageContaining(
                            "has no knowledge graph: build one with `planvm kb index PATH... --kb docs --graph`");
        }
    }

    @Test
    void a_missing_knowledge_base_is_a_located_configuration_problem() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"nope\"}")) {
            assertThat(new KnowledgeToolProvider().tools(setup)).isEmpty();
            assertThat(setup.problems()).singleElement().satisfies(problem -> {
                assertThat(problem.pointer()).isEqualTo("/knowledge/kb");
                assertThat(problem.message()).startsWith("there is no knowledge base 'nope' at ");
            });
        }
    }

    @Test
    void bad_settings_are_located_configuration_problems() throws Exception {
        try (ToolSetup setup = setup("{\"kb\": \"docs\", \"graph_depth\": 9}")) {
            assertThat(new KnowledgeToolProvider().tools(setup)).isEmpty();
            assertThat(setup.problems()).singleElement().satisfies(problem -> {
                assertThat(problem.pointer()).isEqualTo("/knowledge");
                assertThat(problem.message()).isEqualTo("graph_depth must be 0 to 5, not 9");
            });
        }
        try (ToolSetup setup = setup("{\"top_k\": 3}")) {
            assertThat(new KnowledgeToolProvider().tools(setup)).isEmpty();
            assertThat(setup.problems()).extracting(ToolSetup.Problem::pointer).containsExactly("/knowledge/kb");
        }
    }

    @Test
    void closing_the_setup_closes_the_knowledge_base() throws Exception {
        ToolSetup setup = setup("{\"kb\": \"docs\"}");
        Tool search = byName(new KnowledgeToolProvider().tools(setup)).get("vector_search");
        call(search, "{\"query\": \"tides\"}");
        setup.close();
        assertThatThrownBy(() -> call(search, "{\"query\": \"tides\"}"))
                .isInstanceOf(ToolException.class)
                .hasMessage("knowledge base 'docs' is closed");
    }

    @Test
    void concurrent_queries_answer_what_sequential_queries_answer() throws Exception {
        List<String> queries = List.of(
                "moon and tides",
                "sourdough starter",
                "volcanic ash",
                "queen's gambit",
                "honey bees",
                "spring tides",
                "baking bread in a Dutch oven",
                "hot spots like Hawaii",
                "waggle dance",
                "tide tables");
        try (ToolSetup docs = setup("{\"kb\": \"docs\"}");
                ToolSetup g = setup("{\"kb\": \"g\"}")) {
            Tool search = byName(new KnowledgeToolProvider().tools(docs)).get("vector_search");
            Tool graph = byName(new KnowledgeToolProvider().tools(g)).get("retrieve_knowledge_graph");
            List<JsonNode> expected = new ArrayList<>();
            for (String query : queries) {
                expected.add(call(search, "{\"query\": \"" + query + "\", \"top_k\": 5}"));
                expected.add(call(graph, "{\"query\": \"" + query + "\"}"));
            }
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int round = 0; round < 10; round++) {
                    for (int i = 0; i < queries.size(); i++) {
                        int index = i;
                        Callable<Boolean> check =
                                () -> call(search, "{\"query\": \"" + queries.get(index) + "\", \"top_k\": 5}")
                                                .equals(expected.get(2 * index))
                                        && call(graph, "{\"query\": \"" + queries.get(index) + "\"}")
                                                .equals(expected.get(2 * index + 1));
                        results.add(pool.submit(check));
                    }
                }
                for (Future<Boolean> result : results) {
                    assertThat(result.get()).isTrue();
                }
                assertThat(results).hasSize(100);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void an_embeddings_endpoint_failure_is_a_retriable_tool_failure_and_its_key_a_recorded_secret() throws Exception {
        try (FakeEmbeddingsServer server = new FakeEmbeddingsServer()) {
            Path docs = work.resolve("remote-docs");
            Files.createDirectories(docs);
            Files.writeString(docs.resolve("a.md"), "# Ships\n\nShips cross oceans.\n");
            EmbeddingEndpoint endpoint = new EmbeddingEndpoint(
                    server.baseUrl(), "fake-embed", "key-1234567", java.time.Duration.ofSeconds(5));
            KnowledgeBases.at(work.resolve(".planvm/kb"))
                    .indexer("remote", Embedders.openAiCompatible(endpoint), IndexSettings.defaults())
                    .index(List.of(docs), work, IndexListener.none());
            String section = "{\"kb\": \"remote\", \"embeddings\": {\"base_url\": \"" + server.baseUrl()
                    + "\", \"model\": \"fake-embed\", \"api_key_secret\": \"EMB_KEY\"}}";
            try (ToolSetup setup = setup(section, Map.of(), Map.of("EMB_KEY", "key-1234567"))) {
                Tool search = byName(new KnowledgeToolProvider().tools(setup)).get("vector_search");
                assertThat(setup.problems()).isEmpty();
                assertThat(setup.secretsUsed()).containsEntry("EMB_KEY", "key-1234567");
                assertThat(call(search, "{\"query\": \"ships\"}")).hasSize(1);
                assertThat(server.authorizations).last().isEqualTo("Bearer key-1234567");
                server.fail(503, "overloaded");
                assertThatThrownBy(() -> call(search, "{\"query\": \"ships\"}"))
                        .isInstanceOfSatisfying(
                                ToolException.class,
                                e -> assertThat(e.retriable()).isTrue())
                        .hasMessageContaining("answered HTTP 503: overloaded");
            }
        }
    }
}
