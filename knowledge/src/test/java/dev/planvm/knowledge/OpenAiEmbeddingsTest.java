package dev.planvm.knowledge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.planvm.knowledge.internal.OpenAiEmbedder;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.knowledge.testing.FakeEmbeddingsServer;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Embeddings through an OpenAI-compatible endpoint: a real HTTP server on 127.0.0.1, langchain4j's client. */
class OpenAiEmbeddingsTest {

    static final String KEY = "sk-test-0123456789abcdef";

    FakeEmbeddingsServer server;
    EmbeddingEndpoint endpoint;

    @TempDir
    Path work;

    @BeforeEach
    void start() throws Exception {
        server = new FakeEmbeddingsServer();
        endpoint = new EmbeddingEndpoint(server.baseUrl(), "fake-embed", KEY, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void texts_are_embedded_by_the_endpoint_with_the_model_and_key() {
        Embedder embedder = Embedders.openAiCompatible(endpoint);
        List<float[]> vectors = embedder.embed(List.of("first text", "second text"));
        assertThat(vectors).hasSize(2).allSatisfy(v -> assertThat(v).hasSize(FakeEmbeddingsServer.DIMENSION));
        assertThat(vectors.get(0)).containsExactly(FakeEmbeddingsServer.vector("first text"));
        assertThat(server.requests).singleElement().satisfies(request -> {
            assertThat(request.get("model").asText()).isEqualTo("fake-embed");
            assertThat(request.get("input")).hasSize(2);
        });
        assertThat(server.authorizations).containsExactly("Bearer " + KEY);
        assertThat(embedder.model()).isEqualTo("openai-compatible/fake-embed");
    }

    @Test
    void a_knowledge_base_built_through_the_endpoint_is_queried_through_it() throws Exception {
        Path docs = work.resolve("docs");
        Files.createDirectories(docs);
        Files.writeString(docs.resolve("cats.md"), "# Cats\n\nCats purr and chase mice around the barn.\n");
        Files.writeString(
                docs.resolve("ships.md"), "# Ships\n\nShips carry containers across oceans between harbours.\n");
        KnowledgeBases bases = KnowledgeBases.at(work.resolve("kb"));
        IndexReport report = bases.indexer(
                        "remote", Embedders.configured(Optional.of(endpoint)), IndexSettings.defaults())
                .index(List.of(docs), work, IndexListener.none());
        assertThat(report.chunksEmbedded()).isEqualTo(2);
        assertThat(bases.stats("remote").model()).isEqualTo("openai-compatible/fake-embed");
        assertThat(bases.stats("remote").dimension()).isEqualTo(FakeEmbeddingsServer.DIMENSION);
        try (KnowledgeBase kb = bases.open("remote", Optional.of(endpoint), QuerySettings.defaults())) {
            assertThat(kb.search("which ships cross oceans", 1, 1000))
                    .singleElement()
                    .satisfies(hit -> assertThat(hit.sourceUri()).isEqualTo("docs/ships.md"));
        }
        EmbeddingEndpoint otherModel =
                new EmbeddingEndpoint(server.baseUrl(), "other-embed", KEY, Duration.ofSeconds(5));
        assertThatThrownBy(() -> bases.open("remote", Optional.of(otherModel), QuerySettings.defaults()))
                .isInstanceOf(KnowledgeException.class)
                .hasMessageContaining(
                        "was built with embedding model 'openai-compatible/fake-embed' but the configured model is "
                                + "'openai-compatible/other-embed'");
        assertThatThrownBy(() -> bases.open("remote", Optional.empty(), QuerySettings.defaults()))
                .isInstanceOf(KnowledgeException.class)
                .hasMessageContaining("set PLANVM_EMBEDDINGS_BASE_URL");
    }

    @Test
    void a_server_error_is_retriable_and_named_in_one_sentence() {
        server.fail(500, "{\"error\": {\"message\": \"boom\"}}");
        assertThatThrownBy(() -> Embedders.openAiCompatible(endpoint).embed(List.of("x")))
                .isInstanceOfSatisfying(
                        KnowledgeException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessageStartingWith("the embeddings endpoint " + server.baseUrl() + " answered HTTP 500: ")
                .hasMessageContaining("boom")
                .hasMessageNotContaining("\n");
    }

    @Test
    void a_refused_key_is_not_retriable_and_never_shown() {
        server.fail(401, "{\"error\": \"invalid key " + KEY + "\"}");
        assertThatThrownBy(() -> Embedders.openAiCompatible(endpoint).embed(List.of("x")))
                .isInstanceOfSatisfying(
                        KnowledgeException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessageContaining("refused the key")
                .hasMessageNotContaining(KEY);
        assertThat(endpoint.toString()).doesNotContain(KEY);
    }

    @Test
    void rate_limiting_is_retriable() {
        server.fail(429, "slow down");
        assertThatThrownBy(() -> Embedders.openAiCompatible(endpoint).embed(List.of("x")))
                .isInstanceOfSatisfying(
                        KnowledgeException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessageContaining("answered HTTP 429: slow down");
    }

    @Test
    void a_slow_server_times_out_as_retriable() {
        server.delay(3000);
        EmbeddingEndpoint impatient =
                new EmbeddingEndpoint(server.baseUrl(), "fake-embed", null, Duration.ofMillis(500));
        assertThatThrownBy(() -> Embedders.openAiCompatible(impatient).embed(List.of("x")))
                .isInstanceOfSatisfying(
                        KnowledgeException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessageContaining("did not answer within");
    }

    @Test
    void an_answer_whose_body_trickles_times_out_as_retriable_at_the_timeout_of_the_whole_answer() {
        server.trickle(100);
        EmbeddingEndpoint impatient =
                new EmbeddingEndpoint(server.baseUrl(), "fake-embed", null, Duration.ofMillis(500));
        Throwable failure = assertTimeoutPreemptively(
                Duration.ofSeconds(60), // not hung: no timing target
                () -> catchThrowable(() -> Embedders.openAiCompatible(impatient).embed(List.of("x"))));
        assertThat(failure)
                .isInstanceOfSatisfying(
                        KnowledgeException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessageContaining("did not answer within");
    }

    @Test
    void an_oversized_answer_is_refused_without_being_read_whole() {
        server.oversized(200_000);
        assertThatThrownBy(() -> new OpenAiEmbedder(endpoint, 10_000).embed(List.of("x")))
                .isInstanceOf(KnowledgeException.class)
                .hasMessage("the embeddings endpoint " + server.baseUrl() + " sent an answer larger than 10000 bytes");
    }

    @Test
    void a_closed_port_is_a_retriable_refused_connection() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        EmbeddingEndpoint nobody =
                new EmbeddingEndpoint(URI.create("http://127.0.0.1:" + port + "/v1"), "m", null, Duration.ofSeconds(2));
        assertThatThrownBy(() -> Embedders.openAiCompatible(nobody).embed(List.of("x")))
                .isInstanceOfSatisfying(
                        KnowledgeException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessage("the embeddings endpoint http://127.0.0.1:" + port + "/v1 refused the connection");
    }

    @Test
    void the_endpoint_comes_from_the_environment() {
        assertThat(EmbeddingEndpoint.fromEnvironment(java.util.Map.of())).isEmpty();
        EmbeddingEndpoint configured = EmbeddingEndpoint.fromEnvironment(java.util.Map.of(
                        "PLANVM_EMBEDDINGS_BASE_URL",
                        "http://localhost:11434/v1",
                        "PLANVM_EMBEDDINGS_MODEL",
                        "nomic-embed-text",
                        "PLANVM_EMBEDDINGS_API_KEY",
                        KEY))
                .orElseThrow();
        assertThat(configured.model()).isEqualTo("nomic-embed-text");
        assertThat(configured.apiKey()).isEqualTo(KEY);
        assertThatThrownBy(() ->
                        EmbeddingEndpoint.fromEnvironment(java.util.Map.of("PLANVM_EMBEDDINGS_BASE_URL", "ftp://x")))
                .isInstanceOf(KnowledgeException.class)
                .hasMessageContaining("must be an http:// or https:// URL");
    }
}
