package dev.planvm.knowledge.internal;

import dev.planvm.knowledge.spi.GraphAnswer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;

/**
 * The knowledge graph index ({@code graph/} beside the chunk index): one document per entity (its
 * description's vector for the nearest-entity search) and one per relationship (looked up by either
 * endpoint). Rebuilt whole by {@link #rebuild} after each indexing run with {@code --graph}; read-only
 * and thread-safe otherwise.
 */
public final class GraphStore implements AutoCloseable {

    private static final String KIND = "kind";
    private static final String ENTITY = "entity";
    private static final String RELATIONSHIP = "relationship";
    private static final String ID = "eid";
    private static final String NAME = "name";
    private static final String TYPE = "type";
    private static final String DESCRIPTION = "description";
    private static final String HASH = "hash";
    private static final String SOURCE = "src";
    private static final String TARGET = "dst";
    private static final String VECTOR = "vector";

    private final Path dir;
    private final String what;
    private final Directory directory;
    private final DirectoryReader reader;
    private final IndexSearcher searcher;

    private GraphStore(Path dir, String what, Directory directory, DirectoryReader reader) {
        this.dir = dir;
        this.what = what;
        this.directory = directory;
        this.reader = reader;
        this.searcher = new IndexSearcher(reader);
    }

    /** The graph at {@code dir}, or empty when none was built there. */
    public static Optional<GraphStore> open(Path dir, String what) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        Directory directory = Lucene.directory(dir, what);
        try {
            if (!DirectoryReader.indexExists(directory)) {
                directory.close();
                return Optional.empty();
            }
            return Optional.of(new GraphStore(dir, what, directory, Lucene.reader(directory, dir, what)));
        } catch (IOException | RuntimeException e) {
            Lucene.closeQuietly(directory);
            throw Lucene.failure(e, dir, what);
        }
    }

    /** An entity found near a query, with its cosine similarity. */
    public record Scored(GraphAnswer.Entity entity, double score) {}

    /** The {@code k} entities whose descriptions are nearest {@code unitQuery}, best first. */
    public List<Scored> nearest(float[] unitQuery, int k, int fanout) {
        try {
            int candidates = Math.max(k, fanout);
            TopDocs top = searcher.search(new KnnFloatVectorQuery(VECTOR, unitQuery, candidates), candidates);
            StoredFields stored = searcher.storedFields();
            List<Scored> result = new ArrayList<>();
            for (ScoreDoc scoreDoc : top.scoreDocs) {
                if (result.size() == k) {
                    break;
                }
                result.add(new Scored(entity(stored.document(scoreDoc.doc)), ChunkFields.cosine(scoreDoc.score)));
            }
            return result;
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** The entity with this id, if any. */
    public Optional<GraphAnswer.Entity> entity(long id) {
        return Optional.ofNullable(entities(List.of(id)).get(id));
    }

    /** The entities with these ids that exist, by id. */
    public Map<Long, GraphAnswer.Entity> entities(Collection<Long> ids) {
        Map<Long, GraphAnswer.Entity> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        try {
            TopDocs top = searcher.search(new TermInSetQuery(ID, terms(ids)), ids.size());
            for (Document doc : inDocOrder(top)) {
                GraphAnswer.Entity entity = entity(doc);
                found.put(entity.id(), entity);
            }
            return found;
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** Up to {@code limit} relationships from or to the entity {@code id}. */
    public List<GraphAnswer.Relationship> relationshipsOf(long id, int limit) {
        return relationshipsOfAny(List.of(id), limit);
    }

    /** Up to {@code limit} relationships from or to any of these entities, in index order. */
    public List<GraphAnswer.Relationship> relationshipsOfAny(Collection<Long> ids, int limit) {
        if (ids.isEmpty() || limit <= 0) {
            return List.of();
        }
        List<BytesRef> keys = terms(ids);
        BooleanQuery query = new BooleanQuery.Builder()
                .add(new TermQuery(new Term(KIND, RELATIONSHIP)), BooleanClause.Occur.FILTER)
                .add(
                        new BooleanQuery.Builder()
                                .add(new TermInSetQuery(SOURCE, keys), BooleanClause.Occur.SHOULD)
                                .add(new TermInSetQuery(TARGET, keys), BooleanClause.Occur.SHOULD)
                                .setMinimumNumberShouldMatch(1)
                                .build(),
                        BooleanClause.Occur.FILTER)
                .build();
        try {
            TopDocs top = searcher.search(query, limit);
            List<GraphAnswer.Relationship> result = new ArrayList<>(top.scoreDocs.length);
            for (Document doc : inDocOrder(top)) {
                result.add(new GraphAnswer.Relationship(
                        Long.parseLong(doc.get(SOURCE)), Long.parseLong(doc.get(TARGET)), doc.get(DESCRIPTION)));
            }
            return result;
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /** The stored documents of {@code top}, read in doc id order (stored-field blocks are decompressed once). */
    private List<Document> inDocOrder(TopDocs top) throws IOException {
        int[] docs = new int[top.scoreDocs.length];
        for (int i = 0; i < docs.length; i++) {
            docs[i] = top.scoreDocs[i].doc;
        }
        java.util.Arrays.sort(docs);
        StoredFields stored = searcher.storedFields();
        List<Document> result = new ArrayList<>(docs.length);
        for (int doc : docs) {
            result.add(stored.document(doc));
        }
        return result;
    }

    private static List<BytesRef> terms(Collection<Long> ids) {
        List<BytesRef> terms = new ArrayList<>(ids.size());
        for (long id : ids) {
            terms.add(new BytesRef(Long.toString(id)));
        }
        return terms;
    }

    public int entityCount() {
        return count(ENTITY);
    }

    public int relationshipCount() {
        return count(RELATIONSHIP);
    }

    /** The stored vector of an entity whose embedded text had this hash, if any (to reuse on a rebuild). */
    public Optional<float[]> vectorOf(String hash) {
        try {
            return Lucene.firstVector(searcher, new TermQuery(new Term(HASH, hash)), VECTOR);
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    /**
     * Replaces the graph at {@code dir} by these entities (with their unit vectors and the hashes of the
     * texts embedded) and relationships, in one commit.
     */
    public static void rebuild(
            Path dir,
            String what,
            int hnswM,
            int hnswBeamWidth,
            List<GraphMerge.Entity> entities,
            List<float[]> unitVectors,
            List<String> hashes,
            List<GraphMerge.Relationship> relationships) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw Lucene.failure(e, dir, what);
        }
        Directory directory = Lucene.directory(dir, what);
        IndexWriter writer = null;
        try {
            writer = Lucene.writer(directory, dir, what, hnswM, hnswBeamWidth, true);
            for (int i = 0; i < entities.size(); i++) {
                GraphMerge.Entity entity = entities.get(i);
                Document doc = new Document();
                doc.add(new StringField(KIND, ENTITY, Field.Store.NO));
                doc.add(new StringField(ID, Long.toString(entity.id()), Field.Store.YES));
                doc.add(new StringField(HASH, hashes.get(i), Field.Store.NO));
                doc.add(new StoredField(NAME, entity.name()));
                doc.add(new StoredField(TYPE, entity.type()));
                doc.add(new StoredField(DESCRIPTION, entity.description()));
                doc.add(new KnnFloatVectorField(VECTOR, unitVectors.get(i), ChunkFields.SIMILARITY));
                writer.addDocument(doc);
            }
            for (GraphMerge.Relationship relationship : relationships) {
                Document doc = new Document();
                doc.add(new StringField(KIND, RELATIONSHIP, Field.Store.NO));
                doc.add(new StringField(SOURCE, Long.toString(relationship.sourceId()), Field.Store.YES));
                doc.add(new StringField(TARGET, Long.toString(relationship.targetId()), Field.Store.YES));
                doc.add(new StoredField(DESCRIPTION, relationship.description()));
                writer.addDocument(doc);
            }
            writer.commit();
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        } finally {
            if (writer != null) {
                try {
                    writer.rollback();
                } catch (IOException | RuntimeException ignored) {
                    // committed already, or failed: the lock goes either way
                }
            }
            Lucene.closeQuietly(directory);
        }
    }

    private int count(String kind) {
        try {
            return searcher.count(new TermQuery(new Term(KIND, kind)));
        } catch (IOException | RuntimeException e) {
            throw Lucene.failure(e, dir, what);
        }
    }

    private static GraphAnswer.Entity entity(Document doc) {
        return new GraphAnswer.Entity(Long.parseLong(doc.get(ID)), doc.get(NAME), doc.get(DESCRIPTION));
    }

    @Override
    public void close() {
        Lucene.closeQuietly(reader);
        Lucene.closeQuietly(directory);
    }
}
