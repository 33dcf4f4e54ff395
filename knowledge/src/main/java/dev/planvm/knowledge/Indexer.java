package dev.planvm.knowledge;

import dev.planvm.knowledge.internal.ChunkPhase;
import dev.planvm.knowledge.internal.ChunkStore;
import dev.planvm.knowledge.internal.Chunker;
import dev.planvm.knowledge.internal.DocumentReader;
import dev.planvm.knowledge.internal.FileScan;
import dev.planvm.knowledge.internal.GraphPhase;
import dev.planvm.knowledge.internal.KbPaths;
import dev.planvm.knowledge.internal.Lucene;
import dev.planvm.knowledge.internal.Manifest;
import dev.planvm.knowledge.internal.SafeListener;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexListener.Phase;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Builds and updates a knowledge base from documents (Markdown, text, HTML, PDF). Incremental: a file
 * whose content hash is unchanged is not read again; a changed file is re-chunked and only chunks with
 * new text are embedded; a file that is gone from the paths indexed loses its chunks. With a graph LLM
 * in the settings, chunks without an extraction get one and the knowledge graph is rebuilt.
 *
 * <pre>{@code
 * IndexReport report = KnowledgeBases.at(root).indexer("docs", Embedders.local(), IndexSettings.defaults())
 *         .index(List.of(Path.of("docs")), Path.of(""), listener);
 * }</pre>
 *
 * One indexer at a time per knowledge base (another process gets a {@link KnowledgeException}); queries
 * may run meanwhile and see the last commit.
 */
public final class Indexer {

    private final Path dir;
    private final String name;
    private final String what;
    private final Embedder embedder;
    private final IndexSettings settings;

    /**
     * @param dir      the knowledge base's directory (created on first use)
     * @param name     its name, for messages
     * @param embedder the embedder; an existing knowledge base refuses one of another model
     */
    public Indexer(Path dir, String name, Embedder embedder, IndexSettings settings) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.name = Objects.requireNonNull(name, "name");
        this.what = "knowledge base '" + name + "'";
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Indexes {@code paths} (files, or directories walked for documents).
     *
     * @param base     sources are recorded relative to this directory (the CLI passes the working directory)
     * @param listener progress, e.g. for a progress bar
     * @throws KnowledgeException when the knowledge base cannot be written or the embedder fails; files
     *                            that cannot be read are not exceptions but {@link IndexReport#failures()}
     */
    public IndexReport index(List<Path> paths, Path base, IndexListener listener) {
        long start = System.nanoTime();
        IndexListener events = new SafeListener(listener);
        Manifest manifest = prepare();
        Map<String, String> commitData = Map.of(
                "format",
                Manifest.FORMAT,
                "model",
                manifest.model(),
                "dimension",
                Integer.toString(manifest.dimension()),
                "updated",
                Instant.now().toString());

        events.started(Phase.SCAN, -1);
        FileScan.Result scan = FileScan.scan(paths, base, settings.maxFiles());
        events.finished(Phase.SCAN);

        Path indexDir = KbPaths.index(dir);
        try (ChunkStore before = hasIndex(indexDir) ? ChunkStore.open(indexDir, what) : null) {
            ChunkPhase chunks = new ChunkPhase(
                    indexDir,
                    what,
                    embedder,
                    manifest.dimension(),
                    settings.chunkingSignature(),
                    new DocumentReader(settings.maxTextChars(), settings.maxPdfPages()),
                    new Chunker(settings.chunkTokens(), settings.overlapTokens(), settings.maxChunksPerFile()),
                    settings.maxFileBytes(),
                    before,
                    events,
                    commitData);
            ChunkPhase.Outcome outcome = chunks.run(scan, settings.hnswM(), settings.hnswBeamWidth());
            Optional<IndexReport.GraphReport> graph = Optional.empty();
            if (settings.graphLlm() != null) {
                graph = Optional.of(new GraphPhase(
                                dir,
                                what,
                                embedder,
                                manifest.dimension(),
                                settings.graphLlm(),
                                settings.maxLlmCalls(),
                                settings.hnswM(),
                                settings.hnswBeamWidth(),
                                events,
                                commitData)
                        .run(before));
            }
            int total;
            try (ChunkStore after = ChunkStore.open(indexDir, what)) {
                total = after.count("chunk");
            }
            List<IndexReport.Problem> failures = new ArrayList<>(scan.failures());
            failures.addAll(outcome.failures());
            List<String> warnings = new ArrayList<>(outcome.warnings());
            if (scan.truncated()) {
                warnings.add(
                        0,
                        "only the first " + settings.maxFiles() + " files were indexed (the file limit was reached)");
            }
            return new IndexReport(
                    name,
                    outcome.added(),
                    outcome.changed(),
                    outcome.unchanged(),
                    outcome.removed(),
                    failures,
                    warnings,
                    outcome.embedded(),
                    outcome.reused(),
                    total,
                    graph,
                    Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /** The manifest of the knowledge base, written now when it is new; checks the embedder against it. */
    private Manifest prepare() {
        if (Files.exists(KbPaths.manifest(dir))) {
            Manifest manifest = Manifest.read(dir, name);
            if (!manifest.model().equals(embedder.model())) {
                throw Embedders.mismatch(name, manifest.model(), embedder.model());
            }
            if (manifest.maxTokens() != settings.chunkTokens()
                    || manifest.overlapTokens() != settings.overlapTokens()
                    || manifest.hnswM() != settings.hnswM()
                    || manifest.hnswBeamWidth() != settings.hnswBeamWidth()) {
                manifest = new Manifest(
                        name,
                        manifest.model(),
                        manifest.dimension(),
                        settings.chunkTokens(),
                        settings.overlapTokens(),
                        settings.hnswM(),
                        settings.hnswBeamWidth(),
                        manifest.created());
                manifest.write(dir);
            }
            return manifest;
        }
        if (Files.exists(dir) && !isEmptyDirectory(dir)) {
            throw new KnowledgeException(dir + " exists and is not a planvm knowledge base (it has no " + Manifest.FILE
                    + "): choose another name or remove it");
        }
        List<float[]> probe = embedder.embed(List.of("planvm"));
        if (probe.size() != 1 || probe.get(0).length == 0) {
            throw new KnowledgeException("the embedder " + embedder.model() + " answered no vector for a probe text");
        }
        int dimension = probe.get(0).length;
        if (dimension > Lucene.MAX_DIMENSIONS) {
            throw new KnowledgeException("the embedder " + embedder.model() + " makes " + dimension
                    + "-dimensional vectors; the index takes at most " + Lucene.MAX_DIMENSIONS
                    + ": choose a model with fewer dimensions");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new KnowledgeException("cannot create " + dir + ": " + e.getMessage(), false, e);
        }
        Manifest manifest = new Manifest(
                name,
                embedder.model(),
                dimension,
                settings.chunkTokens(),
                settings.overlapTokens(),
                settings.hnswM(),
                settings.hnswBeamWidth(),
                Instant.now());
        manifest.write(dir);
        return manifest;
    }

    private static boolean hasIndex(Path indexDir) {
        if (!Files.isDirectory(indexDir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(indexDir)) {
            return files.anyMatch(file -> file.getFileName().toString().startsWith("segments_"));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isEmptyDirectory(Path path) {
        if (!Files.isDirectory(path)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(path)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }
}
