package dev.planvm.knowledge.internal;

import static dev.planvm.knowledge.internal.ChunkFields.*;

import dev.planvm.knowledge.spi.ChunkHit;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;

/**
 * The committed chunk index, read-only: nearest-chunk search, and what the indexer needs to know of the
 * last run (file records, vectors and extractions by chunk hash). A point-in-time view of the last
 * commit; thread-safe.
 */
public final class ChunkStore implements AutoCloseable {

    private final Path dir;
    private final String what;
    private final Directory directory;
    private final DirectoryReader reader;
    private final IndexSearcher searcher;

    private ChunkStore(Path dir, String what, Directory directory, DirectoryReader reader) {
        this.dir = dir;
        this.what = what;
        this.directory = directory;
        this.reader = reader;
        this.searcher = new IndexSearcher(reader);
    }

    /** The chunk index at {@code dir}; {@code what} names the knowledge base in messages. */
    public static ChunkStore open(Path dir, String what) {
        Directory directory = Lucene.directory(dir, what);
        try {
            return new ChunkStore(dir, what, directory, Lucene.reader(directory, dir, what));
        } catch (RuntimeException e) {
            Lucene.closeQuietly(directory);
            throw e;
        }
    }

    /**
     * The {@code topK} chunks nearest {@code unitQuery}, best first. The HNSW search looks at
     * {@code max(topK, fanout)} candidates, which buys recall for a little time.
     */
    public List<ChunkHit> search(float[] unitQuery, int topK, int fanout) {
        try {
            int k = Math.max(topK, fanout);
            TopDocs top = searcher.search(new KnnFloatVectorQuery(VECTOR, unitQuery, k), k);
            int count = Math.min(topK, top.scoreDocs.length);
            int[] docs = new int[count];
            for (int i = 0; i < count; i++) {
                docs[i] = top.scoreDocs[i].doc;
            }
            java.util.Arrays.sort(docs);
            StoredFields stored = searcher.storedFields();
            Map<Integer, Document> byDoc = new java.util.HashMap<>();
            for (int doc : docs) {
                byDoc.put(doc, stored.document(doc)); // in doc order: each stored-fields block is decompressed once
            }
            List<ChunkHit> hits = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ScoreDoc scoreDoc = top.scoreDocs[i];
                Document doc = byDoc.get(scoreDoc.doc);
                hits.add(new ChunkHit(
                        doc.get(ID),
                        doc.get(CONTENT),
                        doc.get(SOURCE),
                        cosine(scoreDoc.score),
                        doc.get(TITLE),
                        doc.get(HEADING),
                        intField(doc, START),
                        intField(doc, END),
                        intField(doc, TOKENS)));
            }
            return hits;
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** How many documents of this kind the index holds ({@code chunk}, {@code file}, {@code extraction}). */
    public int count(String kind) {
        try {
            return searcher.count(new TermQuery(new Term(KIND, kind)));
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** The file records, by source. */
    public Map<String, FileRecord> files() {
        Map<String, FileRecord> files = new LinkedHashMap<>();
        for (Document doc : all(FILE)) {
            files.put(
                    doc.get(SOURCE),
                    new FileRecord(
                            doc.get(SOURCE),
                            doc.get(HASH),
                            longField(doc, BYTES),
                            intField(doc, CHUNKS),
                            doc.get(TYPE),
                            doc.get(TITLE),
                            doc.get(SIGNATURE),
                            "true".equals(doc.get(TRUNCATED))));
        }
        return files;
    }

    /** The stored vector of a chunk whose embedded text had this hash, if any. */
    public Optional<float[]> vectorOf(String chunkHash) {
        try {
            return Lucene.firstVector(searcher, kindAnd(CHUNK, HASH, chunkHash), VECTOR);
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** The stored extraction (JSON text) of a chunk with this hash, if any. */
    public Optional<String> extractionOf(String chunkHash) {
        try {
            TopDocs top = searcher.search(kindAnd(EXTRACTION, HASH, chunkHash), 1);
            if (top.scoreDocs.length == 0) {
                return Optional.empty();
            }
            return Optional.of(
                    searcher.storedFields().document(top.scoreDocs[0].doc).get(JSON));
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** Every stored extraction as (chunk id, JSON text), in index order. */
    public List<Map.Entry<String, String>> extractions() {
        List<Map.Entry<String, String>> result = new ArrayList<>();
        for (Document doc : all(EXTRACTION)) {
            result.add(Map.entry(doc.get(ID), doc.get(JSON)));
        }
        return result;
    }

    /** The ids and hashes of every chunk, by id (for the graph phase: which chunks still need an extraction). */
    public List<ChunkRecord> chunks() {
        List<ChunkRecord> result = new ArrayList<>();
        for (Document doc : all(CHUNK)) {
            result.add(new ChunkRecord(
                    doc.get(ID),
                    doc.get(SOURCE),
                    intField(doc, ORDINAL),
                    doc.get(TITLE),
                    doc.get(HEADING),
                    intField(doc, START),
                    intField(doc, END),
                    intField(doc, TOKENS),
                    doc.get(CONTENT),
                    doc.get(HASH)));
        }
        return result;
    }

    /** The commit's user data (store format, model, last update). */
    public Map<String, String> userData() {
        try {
            return reader.getIndexCommit().getUserData();
        } catch (IOException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    private List<Document> all(String kind) {
        try {
            TermQuery query = new TermQuery(new Term(KIND, kind));
            int count = Math.max(1, searcher.count(query));
            TopDocs top = searcher.search(query, count);
            StoredFields stored = searcher.storedFields();
            List<Document> docs = new ArrayList<>(top.scoreDocs.length);
            for (ScoreDoc scoreDoc : top.scoreDocs) {
                docs.add(stored.document(scoreDoc.doc));
            }
            return docs;
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    private static BooleanQuery kindAnd(String kind, String field, String value) {
        return new BooleanQuery.Builder()
                .add(new TermQuery(new Term(KIND, kind)), BooleanClause.Occur.FILTER)
                .add(new TermQuery(new Term(field, value)), BooleanClause.Occur.FILTER)
                .build();
    }

    private static int intField(Document doc, String field) {
        var value = doc.getField(field);
        return value == null || value.numericValue() == null
                ? 0
                : value.numericValue().intValue();
    }

    private static long longField(Document doc, String field) {
        var value = doc.getField(field);
        return value == null || value.numericValue() == null
                ? 0
                : value.numericValue().longValue();
    }

    @Override
    public void close() {
        Lucene.closeQuietly(reader);
        Lucene.closeQuietly(directory);
    }
}
