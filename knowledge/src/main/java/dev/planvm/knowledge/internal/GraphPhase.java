package dev.planvm.knowledge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexListener.Phase;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.knowledge.spi.LlmJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The graph phase of an indexing run: every chunk without an extraction gets one — copied from the last
 * run when a chunk with the same text had one, else asked of the LLM while the call budget lasts — then
 * the graph is merged from all extractions and rebuilt, entity descriptions embedded (reusing the vectors
 * of unchanged ones). A failed extraction is reported and left for the next run.
 */
public final class GraphPhase {

    private static final int COMMIT_EVERY = 50;

    private final Path kbDir;
    private final String what;
    private final Embedder embedder;
    private final int dimension;
    private final LlmJson llm;
    private final int maxLlmCalls;
    private final int hnswM;
    private final int hnswBeamWidth;
    private final IndexListener listener;
    private final Map<String, String> commitData;

    public GraphPhase(
            Path kbDir,
            String what,
            Embedder embedder,
            int dimension,
            LlmJson llm,
            int maxLlmCalls,
            int hnswM,
            int hnswBeamWidth,
            IndexListener listener,
            Map<String, String> commitData) {
        this.kbDir = kbDir;
        this.what = what;
        this.embedder = embedder;
        this.dimension = dimension;
        this.llm = llm;
        this.maxLlmCalls = maxLlmCalls;
        this.hnswM = hnswM;
        this.hnswBeamWidth = hnswBeamWidth;
        this.listener = listener;
        this.commitData = commitData;
    }

    /** Runs the phase; {@code before} is the chunk index as the last run left it, or null. */
    public IndexReport.GraphReport run(ChunkStore before) {
        Path indexDir = KbPaths.index(kbDir);
        List<ChunkRecord> needing;
        try (ChunkStore now = ChunkStore.open(indexDir, what)) {
            Set<String> extracted = new HashSet<>();
            now.extractions().forEach(entry -> extracted.add(entry.getKey()));
            needing = new ArrayList<>(now.chunks().stream()
                    .filter(chunk -> !extracted.contains(chunk.id()))
                    .toList());
        }
        needing.sort(Comparator.comparing(ChunkRecord::source).thenComparingInt(ChunkRecord::ordinal));
        List<IndexReport.Problem> failures = new ArrayList<>();
        int calls = 0;
        int pending = 0;
        listener.started(Phase.GRAPH, needing.size());
        try (ChunkWriter writer = new ChunkWriter(indexDir, what, hnswM, hnswBeamWidth)) {
            int done = 0;
            int uncommitted = 0;
            for (ChunkRecord chunk : needing) {
                Optional<String> copied = before == null ? Optional.empty() : before.extractionOf(chunk.hash());
                if (copied.isPresent()) {
                    writer.addExtraction(chunk.source(), chunk.id(), chunk.hash(), copied.get());
                    uncommitted++;
                } else if (calls < maxLlmCalls) {
                    calls++;
                    Optional<Extraction> extraction = extract(chunk, failures);
                    if (extraction.isPresent()) {
                        writer.addExtraction(
                                chunk.source(),
                                chunk.id(),
                                chunk.hash(),
                                extraction.get().toJson());
                        uncommitted++;
                    } else {
                        pending++;
                    }
                } else {
                    pending++;
                }
                if (uncommitted >= COMMIT_EVERY) {
                    writer.commit(commitData);
                    uncommitted = 0;
                }
                listener.advanced(Phase.GRAPH, ++done, chunk.id());
            }
            writer.commit(commitData);
        }
        listener.finished(Phase.GRAPH);
        return rebuild(calls, pending, failures);
    }

    private Optional<Extraction> extract(ChunkRecord chunk, List<IndexReport.Problem> failures) {
        JsonNode answer;
        try {
            answer = llm.generate(
                    Extraction.PROMPT,
                    Extraction.context(chunk.title(), chunk.heading(), chunk.content()),
                    Extraction.KEYS);
        } catch (RuntimeException e) {
            failures.add(new IndexReport.Problem(
                    chunk.id(),
                    "the extraction call failed: "
                            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())));
            return Optional.empty();
        }
        Optional<Extraction> extraction = Extraction.fromAnswer(answer);
        if (extraction.isEmpty()) {
            failures.add(new IndexReport.Problem(
                    chunk.id(), "the LLM's answer holds no JSON object with an \"entities\" array"));
        }
        return extraction;
    }

    private IndexReport.GraphReport rebuild(int calls, int pending, List<IndexReport.Problem> failures) {
        List<Map.Entry<String, Extraction>> extractions = new ArrayList<>();
        try (ChunkStore now = ChunkStore.open(KbPaths.index(kbDir), what)) {
            for (Map.Entry<String, String> stored : now.extractions()) {
                extractions.add(Map.entry(stored.getKey(), Extraction.fromStored(stored.getValue())));
            }
        }
        extractions.sort(Map.Entry.comparingByKey());
        GraphMerge.Graph graph = GraphMerge.merge(extractions);
        List<String> hashes = new ArrayList<>(graph.entities().size());
        List<float[]> vectors = new ArrayList<>(graph.entities().size());
        List<Integer> missing = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        Optional<GraphStore> old = GraphStore.open(KbPaths.graph(kbDir), what);
        try {
            for (GraphMerge.Entity entity : graph.entities()) {
                String text =
                        entity.description().isEmpty() ? entity.name() : entity.name() + ": " + entity.description();
                String hash = Hashing.sha256(text);
                hashes.add(hash);
                float[] reused = old.flatMap(store -> store.vectorOf(hash))
                        .filter(v -> v.length == dimension)
                        .orElse(null);
                vectors.add(reused);
                if (reused == null) {
                    missing.add(vectors.size() - 1);
                    texts.add(text);
                }
            }
        } finally {
            old.ifPresent(GraphStore::close);
        }
        int batch = Math.max(1, embedder.batchSize());
        for (int from = 0; from < texts.size(); from += batch) {
            List<String> slice = texts.subList(from, Math.min(texts.size(), from + batch));
            List<float[]> answer = embedder.embed(slice);
            if (answer.size() != slice.size()) {
                throw new KnowledgeException("the embedder " + embedder.model() + " returned " + answer.size()
                        + " vectors for " + slice.size() + " texts");
            }
            for (int i = 0; i < slice.size(); i++) {
                float[] vector = answer.get(i);
                if (vector.length != dimension) {
                    throw new KnowledgeException(what + " holds " + dimension + "-dimensional vectors but the embedder "
                            + embedder.model() + " answered " + vector.length + " dimensions");
                }
                try {
                    vectors.set(missing.get(from + i), Vectors.normalized(vector));
                } catch (IllegalArgumentException e) {
                    throw new KnowledgeException(
                            "the embedder " + embedder.model() + " answered a zero or non-finite vector");
                }
            }
        }
        GraphStore.rebuild(
                KbPaths.graph(kbDir),
                what,
                hnswM,
                hnswBeamWidth,
                graph.entities(),
                vectors,
                hashes,
                graph.relationships());
        return new IndexReport.GraphReport(
                calls,
                pending,
                failures,
                graph.entities().size(),
                graph.relationships().size(),
                graph.dropped(),
                texts.size());
    }
}
