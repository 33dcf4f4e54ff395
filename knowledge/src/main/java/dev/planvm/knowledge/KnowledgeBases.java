package dev.planvm.knowledge;

import dev.planvm.knowledge.internal.KbPaths;
import dev.planvm.knowledge.internal.Manifest;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The knowledge bases under one root directory ({@value #DEFAULT_ROOT} by default), each in a directory
 * named after it: list, stats, remove, open for queries, index.
 */
public final class KnowledgeBases {

    /** Where knowledge bases live unless configured otherwise, relative to the working directory. */
    public static final String DEFAULT_ROOT = ".planvm/kb";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private final Path root;

    private KnowledgeBases(Path root) {
        this.root = root;
    }

    public static KnowledgeBases at(Path root) {
        return new KnowledgeBases(Objects.requireNonNull(root, "root"));
    }

    public Path root() {
        return root;
    }

    /**
     * The directory of the knowledge base {@code name}.
     *
     * @throws KnowledgeException when the name is not 1–64 letters, digits, {@code . _ -}, starting with a letter or digit
     */
    public Path directory(String name) {
        if (name == null || !NAME.matcher(name).matches() || name.contains("..")) {
            throw new KnowledgeException(
                    "'" + name + "' is not a knowledge base name: use 1 to 64 letters, digits, '.', '_' "
                            + "or '-', starting with a letter or digit");
        }
        return root.resolve(name);
    }

    /** The names of the knowledge bases here (directories holding a {@code kb.json}), sorted. */
    public List<String> names() {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(root)) {
            return entries.filter(dir -> Files.isRegularFile(KbPaths.manifest(dir)))
                    .map(dir -> dir.getFileName().toString())
                    .filter(name -> NAME.matcher(name).matches())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new KnowledgeException("cannot list the knowledge bases in " + root + ": " + e.getMessage(), true, e);
        }
    }

    /** Stats of every knowledge base here; one that cannot be read says why in {@link KbStats#problem()}. */
    public List<KbStats> list() {
        List<KbStats> all = new ArrayList<>();
        for (String name : names()) {
            try {
                all.add(stats(name));
            } catch (KnowledgeException e) {
                all.add(KbStats.broken(name, directory(name), e.getMessage()));
            }
        }
        return all;
    }

    /** Stats of one knowledge base. */
    public KbStats stats(String name) {
        Path dir = directory(name);
        Manifest manifest = Manifest.read(dir, name);
        try (KnowledgeBase kb =
                KnowledgeBase.open(dir, name, new ModelOnly(manifest.model()), QuerySettings.defaults())) {
            return kb.stats();
        }
    }

    /**
     * Deletes the knowledge base {@code name}.
     *
     * @throws KnowledgeException when there is none, or its directory is not a knowledge base (nothing is deleted then)
     */
    public void remove(String name) {
        Path dir = directory(name);
        Manifest.read(dir, name);
        if (Files.exists(KbPaths.index(dir).resolve("write.lock")) && isLocked(dir)) {
            throw new KnowledgeException("knowledge base '" + name + "' is being indexed: wait for that to finish");
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path directory, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new KnowledgeException(
                    "cannot remove knowledge base '" + name + "' at " + dir + ": " + e.getMessage(), true, e);
        }
    }

    /** Opens {@code name} for queries (see {@link KnowledgeBase#open(Path, String, Optional, QuerySettings)}). */
    public KnowledgeBase open(String name, Optional<EmbeddingEndpoint> endpoint, QuerySettings settings) {
        return KnowledgeBase.open(directory(name), name, endpoint, settings);
    }

    /** An indexer for {@code name} (created on first use). */
    public Indexer indexer(String name, Embedder embedder, IndexSettings settings) {
        return new Indexer(directory(name), name, embedder, settings);
    }

    @SuppressWarnings("try") // the lock is taken only to see whether it can be
    private static boolean isLocked(Path dir) {
        try (var directory = org.apache.lucene.store.FSDirectory.open(KbPaths.index(dir));
                var lock = directory.obtainLock(org.apache.lucene.index.IndexWriter.WRITE_LOCK_NAME)) {
            return false;
        } catch (org.apache.lucene.store.LockObtainFailedException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Stands in for the model when only stats are read: never asked to embed. */
    private record ModelOnly(String model) implements Embedder {
        @Override
        public List<float[]> embed(List<String> texts) {
            throw new IllegalStateException("stats do not embed");
        }
    }
}
