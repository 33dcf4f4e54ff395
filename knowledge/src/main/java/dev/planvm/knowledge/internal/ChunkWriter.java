package dev.planvm.knowledge.internal;

import static dev.planvm.knowledge.internal.ChunkFields.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;

/**
 * Changes to the chunk index, visible to readers only on {@link #commit}; {@link #close} drops what was
 * not committed. Holds Lucene's write lock: one writer per knowledge base at a time.
 */
public final class ChunkWriter implements AutoCloseable {

    private final Path dir;
    private final String what;
    private final Directory directory;
    private final IndexWriter writer;

    public ChunkWriter(Path dir, String what, int hnswM, int hnswBeamWidth) {
        this.dir = dir;
        this.what = what;
        this.directory = Lucene.directory(dir, what);
        try {
            this.writer = Lucene.writer(directory, dir, what, hnswM, hnswBeamWidth, false);
        } catch (RuntimeException e) {
            Lucene.closeQuietly(directory);
            throw e;
        }
    }

    /** Deletes everything stored for {@code source}: its file record, chunks and extractions. */
    public void deleteSource(String source) {
        try {
            writer.deleteDocuments(new Term(SOURCE, source));
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    public void addFile(FileRecord file) {
        Document doc = new Document();
        doc.add(new StringField(KIND, FILE, Field.Store.NO));
        doc.add(new StringField(SOURCE, file.source(), Field.Store.YES));
        doc.add(new StringField(HASH, file.hash(), Field.Store.YES));
        doc.add(new StoredField(BYTES, file.bytes()));
        doc.add(new StoredField(CHUNKS, file.chunks()));
        doc.add(new StoredField(TYPE, file.type()));
        doc.add(new StoredField(TITLE, file.title()));
        doc.add(new StoredField(SIGNATURE, file.signature()));
        doc.add(new StoredField(TRUNCATED, Boolean.toString(file.truncated())));
        add(doc);
    }

    /** Adds a chunk with its unit-length vector. */
    public void addChunk(ChunkRecord chunk, float[] unitVector) {
        Document doc = new Document();
        doc.add(new StringField(KIND, CHUNK, Field.Store.NO));
        doc.add(new StringField(SOURCE, chunk.source(), Field.Store.YES));
        doc.add(new StringField(ID, chunk.id(), Field.Store.YES));
        doc.add(new StringField(HASH, chunk.hash(), Field.Store.YES));
        doc.add(new StoredField(ORDINAL, chunk.ordinal()));
        doc.add(new StoredField(START, chunk.start()));
        doc.add(new StoredField(END, chunk.end()));
        doc.add(new StoredField(TOKENS, chunk.tokens()));
        doc.add(new StoredField(TITLE, chunk.title()));
        doc.add(new StoredField(HEADING, chunk.heading()));
        doc.add(new StoredField(CONTENT, chunk.content()));
        doc.add(new KnnFloatVectorField(VECTOR, unitVector, SIMILARITY));
        add(doc);
    }

    /** Stores the LLM's extraction (JSON text) for one chunk. */
    public void addExtraction(String source, String chunkId, String chunkHash, String json) {
        Document doc = new Document();
        doc.add(new StringField(KIND, EXTRACTION, Field.Store.NO));
        doc.add(new StringField(SOURCE, source, Field.Store.YES));
        doc.add(new StringField(ID, chunkId, Field.Store.YES));
        doc.add(new StringField(HASH, chunkHash, Field.Store.YES));
        doc.add(new StoredField(JSON, json));
        add(doc);
    }

    /** Makes every change so far visible, atomically, with this user data on the commit. */
    public void commit(Map<String, String> userData) {
        try {
            writer.setLiveCommitData(userData.entrySet());
            writer.commit();
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    private void add(Document doc) {
        try {
            writer.addDocument(doc);
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** Drops uncommitted changes and releases the write lock. */
    @Override
    public void close() {
        try {
            writer.rollback();
        } catch (IOException | RuntimeException ignored) {
            // the lock is released either way
        }
        Lucene.closeQuietly(directory);
    }
}
