package dev.planvm.knowledge.internal;

import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexListener.Phase;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The chunk phase of an indexing run: each file found is read and hashed; a file whose hash and chunking
 * settings match its record is left alone; a new or changed one is parsed, chunked and embedded (a chunk
 * whose text was embedded before reuses its vector) and replaces what was stored for it; a file gone from
 * the paths indexed is removed. Changes are committed every two minutes and at the end (each commit
 * flushes a segment, and small segments cost HNSW merges),
 * so an interrupted run keeps what it finished, and one that fails on the embedder commits what it did
 * before failing.
 */
public final class ChunkPhase {

    private static final long COMMIT_EVERY_NANOS = 120_000_000_000L;

    /** What the phase did. */
    public record Outcome(
            List<String> added,
            List<String> changed,
            int unchanged,
            List<String> removed,
            List<IndexReport.Problem> failures,
            List<String> warnings,
            int embedded,
            int reused) {}

    /** A file read and chunked, waiting for the vectors of its new chunks. */
    private record Pending(FileRecord file, List<ChunkRecord> chunks, float[][] vectors, List<String> texts) {}

    private final Path indexDir;
    private final String what;
    private final Embedder embedder;
    private final int dimension;
    private final String signature;
    private final DocumentReader reader;
    private final Chunker chunker;
    private final long maxFileBytes;
    private final ChunkStore before;
    private final IndexListener listener;
    private final Map<String, String> commitData;

    private final List<Pending> queue = new ArrayList<>();
    private final List<String> added = new ArrayList<>();
    private final List<String> changed = new ArrayList<>();
    private final List<String> removed = new ArrayList<>();
    private final List<IndexReport.Problem> failures = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private int queuedTexts;
    private int uncommitted;
    private long lastCommit = System.nanoTime();
    private int embedded;
    private int reused;

    /**
     * @param before     the index as the last run left it, or null for a new knowledge base
     * @param commitData what every commit records (format, model)
     */
    public ChunkPhase(
            Path indexDir,
            String what,
            Embedder embedder,
            int dimension,
            String signature,
            DocumentReader reader,
            Chunker chunker,
            long maxFileBytes,
            ChunkStore before,
            IndexListener listener,
            Map<String, String> commitData) {
        this.indexDir = indexDir;
        this.what = what;
        this.embedder = embedder;
        this.dimension = dimension;
        this.signature = signature;
        this.reader = reader;
        this.chunker = chunker;
        this.maxFileBytes = maxFileBytes;
        this.before = before;
        this.listener = listener;
        this.commitData = commitData;
    }

    public Outcome run(FileScan.Result scan, int hnswM, int hnswBeamWidth) {
        Map<String, FileRecord> known = before == null ? Map.of() : before.files();
        int unchanged = 0;
        listener.started(Phase.EMBED, scan.files().size());
        try (ChunkWriter writer = new ChunkWriter(indexDir, what, hnswM, hnswBeamWidth)) {
            try {
                int done = 0;
                for (FileScan.Found found : scan.files()) {
                    if (!process(found, known.get(found.source()), writer)) {
                        unchanged++;
                    }
                    listener.advanced(Phase.EMBED, ++done, found.source());
                }
                flush(writer);
            } catch (KnowledgeException failed) {
                try {
                    writer.commit(commitData);
                } catch (RuntimeException alsoFailed) {
                    failed.addSuppressed(alsoFailed);
                }
                throw failed;
            }
            Set<String> present = new HashSet<>();
            scan.files().forEach(found -> present.add(found.source()));
            for (FileRecord record : known.values()) {
                if (!present.contains(record.source())
                        && scan.roots().stream().anyMatch(root -> root.covers(record.source()))) {
                    writer.deleteSource(record.source());
                    removed.add(record.source());
                }
            }
            writer.commit(commitData);
        }
        listener.finished(Phase.EMBED);
        return new Outcome(added, changed, unchanged, removed, failures, warnings, embedded, reused);
    }

    /** Reads one file; false when it is unchanged. */
    private boolean process(FileScan.Found found, FileRecord record, ChunkWriter writer) {
        byte[] bytes;
        try {
            bytes = readBounded(found.file());
        } catch (IOException e) {
            failures.add(new IndexReport.Problem(found.source(), "cannot be read: " + e.getMessage()));
            return true;
        }
        if (bytes == null) {
            failures.add(
                    new IndexReport.Problem(found.source(), "is larger than the limit of " + maxFileBytes + " bytes"));
            return true;
        }
        String hash = Hashing.sha256(bytes);
        if (record != null && record.hash().equals(hash) && signature.equals(record.signature())) {
            return false;
        }
        ParsedDocument document;
        try {
            document = reader.read(found.file(), bytes);
        } catch (DocumentException e) {
            if (e.skipped()) {
                warnings.add(found.source() + ": skipped: " + e.getMessage());
            } else {
                failures.add(new IndexReport.Problem(found.source(), e.getMessage()));
            }
            return true;
        }
        Chunker.Result chunks = chunker.chunk(document, Tokens.shared());
        boolean truncated = document.truncated() || chunks.truncated();
        if (document.truncated()) {
            warnings.add(found.source() + ": only the start of its text was indexed (the text limit was reached)");
        }
        if (chunks.truncated()) {
            warnings.add(found.source() + ": only its first " + chunks.spans().size()
                    + " chunks were indexed (the chunk limit was reached)");
        }
        List<ChunkRecord> records = new ArrayList<>();
        float[][] vectors = new float[chunks.spans().size()][];
        List<String> texts = new ArrayList<>();
        for (Chunker.Span span : chunks.spans()) {
            String content = document.text().substring(span.start(), span.end());
            String embedText = embedText(document.title(), span.heading(), content);
            String chunkHash = Hashing.sha256(embedText);
            int ordinal = records.size();
            records.add(new ChunkRecord(
                    found.source() + "#" + ordinal,
                    found.source(),
                    ordinal,
                    document.title(),
                    span.heading(),
                    span.start(),
                    span.end(),
                    span.tokens(),
                    content,
                    chunkHash));
            float[] old = before == null
                    ? null
                    : before.vectorOf(chunkHash)
                            .filter(v -> v.length == dimension)
                            .orElse(null);
            if (old != null) {
                vectors[ordinal] = old;
                reused++;
            } else {
                texts.add(embedText);
            }
        }
        FileRecord file = new FileRecord(
                found.source(),
                hash,
                bytes.length,
                records.size(),
                document.type(),
                document.title(),
                signature,
                truncated);
        (record == null ? added : changed).add(found.source());
        queue.add(new Pending(file, records, vectors, texts));
        queuedTexts += texts.size();
        if (queuedTexts >= embedder.batchSize() * 4 || queue.size() >= 256) {
            flush(writer);
        }
        if (uncommitted > 0 && System.nanoTime() - lastCommit >= COMMIT_EVERY_NANOS) {
            writer.commit(commitData);
            uncommitted = 0;
            lastCommit = System.nanoTime();
        }
        return true;
    }

    /** Embeds the queued texts and writes the queued files. */
    private void flush(ChunkWriter writer) {
        List<String> texts = new ArrayList<>(queuedTexts);
        queue.forEach(pending -> texts.addAll(pending.texts()));
        List<float[]> vectors = new ArrayList<>(texts.size());
        int batch = Math.max(1, embedder.batchSize());
        for (int from = 0; from < texts.size(); from += batch) {
            List<String> slice = texts.subList(from, Math.min(texts.size(), from + batch));
            List<float[]> answer = embedder.embed(slice);
            if (answer.size() != slice.size()) {
                throw new KnowledgeException("the embedder " + embedder.model() + " returned " + answer.size()
                        + " vectors for " + slice.size() + " texts");
            }
            for (float[] vector : answer) {
                vectors.add(unit(vector));
            }
        }
        embedded += texts.size();
        int next = 0;
        for (Pending pending : queue) {
            for (int i = 0; i < pending.vectors().length; i++) {
                if (pending.vectors()[i] == null) {
                    pending.vectors()[i] = vectors.get(next++);
                }
            }
            writer.deleteSource(pending.file().source());
            writer.addFile(pending.file());
            for (int i = 0; i < pending.chunks().size(); i++) {
                writer.addChunk(pending.chunks().get(i), pending.vectors()[i]);
            }
            uncommitted += pending.chunks().size();
        }
        queue.clear();
        queuedTexts = 0;
    }

    private float[] unit(float[] vector) {
        if (vector.length != dimension) {
            throw new KnowledgeException(what + " holds " + dimension + "-dimensional vectors but the embedder "
                    + embedder.model() + " answered " + vector.length + " dimensions");
        }
        try {
            return Vectors.normalized(vector);
        } catch (IllegalArgumentException e) {
            throw new KnowledgeException("the embedder " + embedder.model() + " answered a zero or non-finite vector");
        }
    }

    /** The text that is embedded for a chunk: its title and heading path, then its content. */
    public static String embedText(String title, String heading, String content) {
        String path = heading.isEmpty() ? title : heading.startsWith(title) ? heading : title + " > " + heading;
        return path + "\n\n" + content;
    }

    /** The file's bytes, or null when it is larger than the limit (read no further than that). */
    private byte[] readBounded(Path file) throws IOException {
        if (Files.size(file) > maxFileBytes) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxFileBytes + 1));
            return bytes.length > maxFileBytes ? null : bytes;
        }
    }
}
