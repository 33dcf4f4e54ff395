package dev.planvm.knowledge.internal;

import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;

/** Opening Lucene indexes, with every failure told as one sentence about the knowledge base. */
public final class Lucene {

    /** The most dimensions Lucene's HNSW format takes. */
    public static final int MAX_DIMENSIONS = 1024;

    private Lucene() {}

    /** The directory of the index at {@code dir}; {@code what} names it in messages ("knowledge base 'docs'"). */
    public static Directory directory(Path dir, String what) {
        try {
            return FSDirectory.open(dir);
        } catch (IOException | RuntimeException e) {
            throw failure(e, dir, what);
        }
    }

    /** A reader of the index in {@code directory} (at {@code dir}). */
    public static DirectoryReader reader(Directory directory, Path dir, String what) {
        try {
            return DirectoryReader.open(directory);
        } catch (IOException | RuntimeException e) {
            throw failure(e, dir, what);
        }
    }

    /** A writer on the index in {@code directory} (created when absent, or anew), its vectors in HNSW graphs of these settings. */
    public static IndexWriter writer(
            Directory directory, Path dir, String what, int hnswM, int hnswBeamWidth, boolean create) {
        try {
            IndexWriterConfig config = new IndexWriterConfig()
                    .setCodec(codec(hnswM, hnswBeamWidth))
                    .setOpenMode(
                            create ? IndexWriterConfig.OpenMode.CREATE : IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                    .setRAMBufferSizeMB(128)
                    .setCommitOnClose(false);
            TieredMergePolicy merges = new TieredMergePolicy();
            merges.setSegmentsPerTier(4);
            config.setMergePolicy(merges);
            return new IndexWriter(directory, config);
        } catch (IOException | RuntimeException e) {
            throw failure(e, dir, what);
        }
    }

    /** Lucene's default codec with HNSW vectors of these settings (readers need nothing special: the format is registered). */
    static Codec codec(int hnswM, int hnswBeamWidth) {
        KnnVectorsFormat vectors = new Lucene99HnswVectorsFormat(hnswM, hnswBeamWidth);
        return new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return vectors;
            }
        };
    }

    /** The vector in {@code field} of the first document {@code query} finds, if any (a copy). */
    static Optional<float[]> firstVector(IndexSearcher searcher, Query query, String field) throws IOException {
        TopDocs top = searcher.search(query, 1);
        if (top.scoreDocs.length == 0) {
            return Optional.empty();
        }
        IndexReader reader = searcher.getIndexReader();
        int doc = top.scoreDocs[0].doc;
        LeafReaderContext leaf = reader.leaves().get(ReaderUtil.subIndex(doc, reader.leaves()));
        FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
        if (values == null || values.advance(doc - leaf.docBase) != doc - leaf.docBase) {
            return Optional.empty();
        }
        return Optional.of(values.vectorValue().clone());
    }

    /** The sentence for a failure to open or use the index of {@code what} at {@code dir}. */
    public static KnowledgeException failure(Throwable e, Path dir, String what) {
        if (e instanceof KnowledgeException known) {
            return known;
        }
        if (e instanceof AlreadyClosedException) {
            return new KnowledgeException(what + " is closed", false, e);
        }
        if (e instanceof LockObtainFailedException) {
            return new KnowledgeException(
                    what + " is being indexed by another process (" + dir.resolve("write.lock")
                            + " is held): wait for it to finish",
                    true,
                    e);
        }
        if (e instanceof IndexNotFoundException) {
            return new KnowledgeException(
                    what + " has no index at " + dir + ": index documents into it with `planvm kb index`", false, e);
        }
        if (e instanceof CorruptIndexException
                || e instanceof EOFException
                || e instanceof NoSuchFileException
                || e instanceof IndexFormatTooOldException
                || e instanceof IndexFormatTooNewException
                || e instanceof IllegalArgumentException
                || e instanceof IllegalStateException) {
            return new KnowledgeException(
                    what + " is damaged (" + dir + ": " + reason(e)
                            + "): remove it with `planvm kb remove` and index the documents again",
                    false,
                    e);
        }
        return new KnowledgeException(
                what + " cannot be read at " + dir + ": " + reason(e), e instanceof IOException, e);
    }

    private static String reason(Throwable e) {
        String message;
        if (e instanceof CorruptIndexException corrupt) {
            message = corrupt.getOriginalMessage();
        } else if (e instanceof IndexFormatTooOldException || e instanceof IndexFormatTooNewException) {
            message = "a file's format version is not one this planvm reads";
        } else if (e instanceof EOFException) {
            message = "a file is cut short";
        } else if (e instanceof NoSuchFileException missing) {
            message = "file " + Path.of(String.valueOf(missing.getFile())).getFileName() + " is missing";
        } else {
            message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
        String line = message.lines().findFirst().orElse(message).strip();
        int resource = line.indexOf(" (resource");
        if (resource > 0) {
            line = line.substring(0, resource);
        }
        return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }

    static void closeQuietly(AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // nothing more to do
            }
        }
    }
}
