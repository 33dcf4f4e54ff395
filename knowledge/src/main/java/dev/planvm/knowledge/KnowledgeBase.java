package dev.planvm.knowledge;

import dev.planvm.knowledge.internal.ChunkStore;
import dev.planvm.knowledge.internal.Chunker;
import dev.planvm.knowledge.internal.GraphStore;
import dev.planvm.knowledge.internal.KbPaths;
import dev.planvm.knowledge.internal.Manifest;
import dev.planvm.knowledge.internal.Vectors;
import dev.planvm.knowledge.spi.ChunkHit;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.GraphAnswer;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An open knowledge base, for queries: the chunks nearest a query ({@link #search}) and the part of the
 * knowledge graph around it ({@link #graph}). It reads the index as it was when opened (a later indexing
 * run is seen after reopening). Thread-safe: any number of queries may run at once. Close it to release
 * the index files.
 */
public final class KnowledgeBase implements AutoCloseable {

    private final String name;
    private final Path dir;
    private final Manifest manifest;
    private final Embedder embedder;
    private final QuerySettings settings;
    private final ChunkStore chunks;
    private final GraphStore graph;

    private KnowledgeBase(
            String name,
            Path dir,
            Manifest manifest,
            Embedder embedder,
            QuerySettings settings,
            ChunkStore chunks,
            GraphStore graph) {
        this.name = name;
        this.dir = dir;
        this.manifest = manifest;
        this.embedder = embedder;
        this.settings = settings;
        this.chunks = chunks;
        this.graph = graph;
    }

    /**
     * Opens the knowledge base at {@code dir}, querying with the embedder its model needs: the in-process
     * model, or {@code endpoint} when it was built through one.
     *
     * @throws KnowledgeException when it is missing, damaged, of another store format, or its model is not available
     */
    public static KnowledgeBase open(
            Path dir, String name, Optional<EmbeddingEndpoint> endpoint, QuerySettings settings) {
        Manifest manifest = Manifest.read(dir, name);
        return open(dir, name, manifest, Embedders.forModel(name, manifest.model(), endpoint), settings);
    }

    /**
     * Opens the knowledge base at {@code dir}, querying with {@code embedder}.
     *
     * @throws KnowledgeException as above, and when {@code embedder} is not the model that built it
     */
    public static KnowledgeBase open(Path dir, String name, Embedder embedder, QuerySettings settings) {
        Manifest manifest = Manifest.read(dir, name);
        if (!manifest.model().equals(embedder.model())) {
            throw Embedders.mismatch(name, manifest.model(), embedder.model());
        }
        return open(dir, name, manifest, embedder, settings);
    }

    private static KnowledgeBase open(
            Path dir, String name, Manifest manifest, Embedder embedder, QuerySettings settings) {
        Objects.requireNonNull(settings, "settings");
        String what = "knowledge base '" + name + "'";
        ChunkStore chunks = ChunkStore.open(KbPaths.index(dir), what);
        try {
            GraphStore graph = GraphStore.open(KbPaths.graph(dir), what).orElse(null);
            return new KnowledgeBase(name, dir, manifest, embedder, settings, chunks, graph);
        } catch (RuntimeException e) {
            chunks.close();
            throw e;
        }
    }

    public String name() {
        return name;
    }

    /** The embedding model that built it. */
    public String model() {
        return manifest.model();
    }

    public QuerySettings settings() {
        return settings;
    }

    /** Whether it has a knowledge graph (built with {@code planvm kb index --graph}). */
    public boolean hasGraph() {
        return graph != null;
    }

    /** The chunks nearest {@code query}: the settings' default {@code top_k}, within its token budget. */
    public List<ChunkHit> search(String query) {
        return search(query, settings.defaultTopK(), settings.tokenBudget());
    }

    /**
     * The {@code topK} chunks nearest {@code query}, best first, cut to the longest best-first run whose
     * tokens (at least their characters over {@link Chunker#MAX_CHARS_PER_TOKEN}) add up to at most
     * {@code tokenBudget}.
     */
    public List<ChunkHit> search(String query, int topK, int tokenBudget) {
        if (topK < 1 || topK > settings.maxTopK()) {
            throw new KnowledgeException("top_k must be 1 to " + settings.maxTopK() + ", not " + topK);
        }
        List<ChunkHit> hits = chunks.search(embed(query), topK, settings.fanout());
        List<ChunkHit> kept = new ArrayList<>(hits.size());
        long tokens = 0;
        for (ChunkHit hit : hits) {
            tokens += cost(hit);
            if (tokens > tokenBudget) {
                break;
            }
            kept.add(hit);
        }
        return kept;
    }

    /**
     * What a hit costs of the budget: its tokens, and at least its characters over
     * {@link Chunker#MAX_CHARS_PER_TOKEN} — what a chunk can hold per token — so that a chunk stored
     * before chunks were capped (a long run without whitespace counted as a few tokens) is not returned
     * whole inside a small budget.
     */
    private static long cost(ChunkHit hit) {
        long bySize = (hit.content().length() + Chunker.MAX_CHARS_PER_TOKEN - 1) / Chunker.MAX_CHARS_PER_TOKEN;
        return Math.max(hit.tokens(), bySize);
    }

    /**
     * The entities nearest {@code query} and what their relationships reach within the settings' depth,
     * bounded by its entity and relationship limits.
     *
     * @throws KnowledgeException when the knowledge base has no graph
     */
    public GraphAnswer graph(String query) {
        return graph(query, settings.graphDepth());
    }

    /** As {@link #graph(String)}, following relationships to {@code depth} hops. */
    public GraphAnswer graph(String query, int depth) {
        if (graph == null) {
            throw new KnowledgeException("knowledge base '" + name + "' has no knowledge graph: build one with "
                    + "`planvm kb index PATH... --kb " + name + " --graph` (it needs an LLM)");
        }
        Map<Long, GraphAnswer.Entity> entities = new LinkedHashMap<>();
        for (GraphStore.Scored seed : graph.nearest(embed(query), settings.graphSeeds(), settings.fanout())) {
            entities.put(seed.entity().id(), seed.entity());
        }
        Set<GraphAnswer.Relationship> relationships = new LinkedHashSet<>();
        List<Long> frontier = new ArrayList<>(entities.keySet());
        for (int hop = 0; hop < depth && !frontier.isEmpty(); hop++) {
            Map<Long, List<GraphAnswer.Relationship>> byEntity = new LinkedHashMap<>();
            for (long id : frontier) {
                byEntity.put(id, new ArrayList<>());
            }
            for (GraphAnswer.Relationship relationship :
                    graph.relationshipsOfAny(frontier, frontier.size() * settings.relationshipsPerEntity())) {
                for (long end : new long[] {relationship.sourceEntityId(), relationship.targetEntityId()}) {
                    List<GraphAnswer.Relationship> list = byEntity.get(end);
                    if (list != null && list.size() < settings.relationshipsPerEntity()) {
                        list.add(relationship);
                        break;
                    }
                }
            }
            Map<Long, GraphAnswer.Relationship> reaching = new LinkedHashMap<>();
            List<GraphAnswer.Relationship> within = new ArrayList<>();
            for (Map.Entry<Long, List<GraphAnswer.Relationship>> entry : byEntity.entrySet()) {
                long id = entry.getKey();
                for (GraphAnswer.Relationship relationship : entry.getValue()) {
                    long other = relationship.sourceEntityId() == id
                            ? relationship.targetEntityId()
                            : relationship.sourceEntityId();
                    if (entities.containsKey(other)) {
                        within.add(relationship);
                    } else if (entities.size() + reaching.size() < settings.graphMaxEntities()) {
                        reaching.putIfAbsent(other, relationship);
                        within.add(relationship);
                    }
                }
            }
            Map<Long, GraphAnswer.Entity> found = graph.entities(reaching.keySet());
            List<Long> next = new ArrayList<>();
            for (long id : reaching.keySet()) {
                GraphAnswer.Entity entity = found.get(id);
                if (entity != null) {
                    entities.put(id, entity);
                    next.add(id);
                }
            }
            for (GraphAnswer.Relationship relationship : within) {
                if (relationships.size() < settings.graphMaxRelationships()
                        && entities.containsKey(relationship.sourceEntityId())
                        && entities.containsKey(relationship.targetEntityId())) {
                    relationships.add(relationship);
                }
            }
            frontier = next;
        }
        return new GraphAnswer(List.copyOf(entities.values()), List.copyOf(relationships));
    }

    /** What it holds. */
    public KbStats stats() {
        Instant updated = null;
        try {
            String text = chunks.userData().get("updated");
            updated = text == null ? null : Instant.parse(text);
        } catch (DateTimeParseException ignored) {
            // an unreadable date is shown as unknown
        }
        return new KbStats(
                name,
                dir,
                manifest.model(),
                manifest.dimension(),
                chunks.count("file"),
                chunks.count("chunk"),
                graph == null ? 0 : graph.entityCount(),
                graph == null ? 0 : graph.relationshipCount(),
                sizeOf(dir),
                manifest.created(),
                updated,
                Optional.empty());
    }

    private float[] embed(String query) {
        if (query == null || query.isBlank()) {
            throw new KnowledgeException("the query is empty");
        }
        List<float[]> vectors = embedder.embed(List.of(query));
        float[] vector = vectors.isEmpty() ? new float[0] : vectors.get(0);
        if (vector.length != manifest.dimension()) {
            throw new KnowledgeException("knowledge base '" + name + "' holds " + manifest.dimension()
                    + "-dimensional vectors but the embedder " + embedder.model() + " answered " + vector.length);
        }
        try {
            return Vectors.normalized(vector);
        } catch (IllegalArgumentException e) {
            throw new KnowledgeException("the embedder " + embedder.model() + " answered a zero vector for the query");
        }
    }

    static long sizeOf(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(file -> {
                        try {
                            return Files.size(file);
                        } catch (IOException e) {
                            return 0;
                        }
                    })
                    .sum();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        chunks.close();
        if (graph != null) {
            graph.close();
        }
    }

    @Override
    public String toString() {
        return "KnowledgeBase[" + name + " at " + dir + "]";
    }
}
