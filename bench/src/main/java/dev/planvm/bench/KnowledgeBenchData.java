package dev.planvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.LlmJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Synthetic data for {@link KnowledgeBench}: unit vectors for items, queries and entities (clustered, of low
 * intrinsic dimension like real embeddings, or uniform on the sphere), documents whose
 * paragraphs name their item ("item 123 ..."), an embedder that maps those names to the vectors, an LLM
 * stand-in that extracts five entities per chunk, and English-like text for the in-process model.
 */
final class KnowledgeBenchData {

    static final int DIMENSION = 384;
    private static final Pattern ITEM = Pattern.compile("\\bitem (\\d+)");
    private static final Pattern QUERY = Pattern.compile("^query (\\d+)$");
    private static final Pattern ENTITY = Pattern.compile("^entity (\\d+)");

    final float[][] items;
    final float[][] queries;
    final float[][] entities;

    static final int LATENT = 32;

    /**
     * @param clustered vectors of low intrinsic dimension, as real embeddings have: 100 Gaussian clusters in a
     *                  {@value #LATENT}-dimensional latent space, mapped to {@value #DIMENSION} dimensions by one
     *                  random linear map, plus a little isotropic noise; else uniform random directions (the
     *                  worst case for any approximate search)
     */
    KnowledgeBenchData(int itemCount, int queryCount, int entityCount, boolean clustered, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Random gaussian = new Random(seed);
        float[][] centres = new float[100][LATENT];
        for (float[] centre : centres) {
            for (int d = 0; d < LATENT; d++) {
                centre[d] = (float) gaussian.nextGaussian();
            }
        }
        float[][] map = new float[DIMENSION][LATENT];
        for (float[] row : map) {
            for (int d = 0; d < LATENT; d++) {
                row[d] = (float) gaussian.nextGaussian();
            }
        }
        items = generate(itemCount, centres, map, clustered, random.split());
        queries = generate(queryCount, centres, map, clustered, random.split());
        entities = generate(entityCount, centres, map, clustered, random.split());
    }

    private KnowledgeBenchData(float[][] items, float[][] queries) {
        this.items = items;
        this.queries = queries;
        this.entities = new float[0][];
    }

    /**
     * Real embeddings: {@code count} English-like paragraphs and {@code queryCount} questions embedded by
     * {@code embedder} (the in-process model), to measure recall on the geometry of a real model.
     */
    static KnowledgeBenchData embedded(Embedder embedder, int count, int queryCount, long seed) {
        Random random = new Random(seed);
        List<String> paragraphs = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            paragraphs.add(sentence(random) + sentence(random) + sentence(random));
        }
        List<String> questions = new ArrayList<>(queryCount);
        for (int i = 0; i < queryCount; i++) {
            questions.add("which "
                    + sentence(random).toLowerCase(java.util.Locale.ROOT).replace(".", "?"));
        }
        return new KnowledgeBenchData(embedAll(embedder, paragraphs), embedAll(embedder, questions));
    }

    private static float[][] embedAll(Embedder embedder, List<String> texts) {
        float[][] vectors = new float[texts.size()][];
        for (int from = 0; from < texts.size(); from += 64) {
            List<float[]> batch = embedder.embed(texts.subList(from, Math.min(texts.size(), from + 64)));
            for (int i = 0; i < batch.size(); i++) {
                vectors[from + i] = unit(batch.get(i));
            }
        }
        return vectors;
    }

    private static String sentence(Random random) {
        return SUBJECTS[random.nextInt(SUBJECTS.length)] + ' ' + VERBS[random.nextInt(VERBS.length)] + ' '
                + OBJECTS[random.nextInt(OBJECTS.length)] + ' ' + TAILS[random.nextInt(TAILS.length)] + ". ";
    }

    private static float[][] generate(
            int count, float[][] centres, float[][] map, boolean clustered, SplittableRandom random) {
        float[][] vectors = new float[count][];
        long[] seeds = new long[count];
        for (int i = 0; i < count; i++) {
            seeds[i] = random.nextLong();
        }
        IntStream.range(0, count).parallel().forEach(i -> {
            SplittableRandom r = new SplittableRandom(seeds[i]);
            if (!clustered) {
                vectors[i] = gaussianUnit(r);
                return;
            }
            Random g = new Random(r.nextLong());
            float[] centre = centres[r.nextInt(centres.length)];
            float[] latent = new float[LATENT];
            for (int d = 0; d < LATENT; d++) {
                latent[d] = centre[d] + 0.6f * (float) g.nextGaussian();
            }
            float[] v = new float[DIMENSION];
            for (int d = 0; d < DIMENSION; d++) {
                float sum = 0;
                for (int k = 0; k < LATENT; k++) {
                    sum += map[d][k] * latent[k];
                }
                v[d] = sum + 0.5f * (float) g.nextGaussian();
            }
            vectors[i] = unit(v);
        });
        return vectors;
    }

    private static float[] gaussianUnit(SplittableRandom random) {
        Random gaussian = new Random(random.nextLong());
        float[] v = new float[DIMENSION];
        for (int d = 0; d < DIMENSION; d++) {
            v[d] = (float) gaussian.nextGaussian();
        }
        return unit(v);
    }

    static float[] unit(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        float norm = (float) Math.sqrt(sum);
        float[] u = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            u[i] = v[i] / norm;
        }
        return u;
    }

    /** Writes {@code count} one-paragraph-per-chunk documents, 100 items per file. */
    static void writeItemDocs(Path dir, int count) throws IOException {
        Files.createDirectories(dir);
        for (int file = 0; file * 100 < count; file++) {
            StringBuilder text = new StringBuilder();
            for (int i = file * 100; i < Math.min(count, file * 100 + 100); i++) {
                text.append("item ").append(i).append(" holds one synthetic vector for the bench.\n\n");
            }
            Files.writeString(dir.resolve(String.format("part-%05d.txt", file)), text);
        }
    }

    /** The item a chunk's text names. */
    static int itemOf(String content) {
        Matcher m = ITEM.matcher(content);
        if (!m.find()) {
            throw new IllegalStateException("no item in: " + content);
        }
        return Integer.parseInt(m.group(1));
    }

    /** Maps "item N" texts to item vectors, "query N" to query vectors, "entity N..." to entity vectors. */
    Embedder embedder() {
        return new Embedder() {
            @Override
            public String model() {
                return "synthetic-" + DIMENSION;
            }

            @Override
            public int batchSize() {
                return 512;
            }

            @Override
            public List<float[]> embed(List<String> texts) {
                List<float[]> out = new ArrayList<>(texts.size());
                for (String text : texts) {
                    Matcher query = QUERY.matcher(text);
                    Matcher entity = ENTITY.matcher(text);
                    Matcher item = ITEM.matcher(text);
                    if (query.matches()) {
                        out.add(queries[Integer.parseInt(query.group(1))]);
                    } else if (entity.find()) {
                        out.add(entities[Integer.parseInt(entity.group(1))]);
                    } else if (item.find()) {
                        out.add(items[Integer.parseInt(item.group(1))]);
                    } else {
                        out.add(gaussianUnit(new SplittableRandom(text.hashCode())));
                    }
                }
                return out;
            }
        };
    }

    /** Five entities per chunk (entity 5i .. 5i+4 for item i), a chain among them and a link to a far entity. */
    LlmJson extractor() {
        int entityCount = entities.length;
        return (prompt, context, keys) -> {
            int item = itemOf(context);
            JsonNodeFactory json = JsonNodeFactory.instance;
            ObjectNode answer = json.objectNode();
            ArrayNode list = answer.putArray("entities");
            ArrayNode relationships = answer.putArray("relationships");
            for (int k = 0; k < 5; k++) {
                int id = (5 * item + k) % entityCount;
                list.addObject()
                        .put("name", "entity " + id)
                        .put("type", "thing")
                        .put("description", "entity " + id + " belongs to group " + (id % 97));
                if (k > 0) {
                    relationships
                            .addObject()
                            .put("source", "entity " + ((5 * item + k - 1) % entityCount))
                            .put("target", "entity " + id)
                            .put("description", "follows");
                }
            }
            int far = (int) ((item * 7919L) % entityCount);
            list.addObject()
                    .put("name", "entity " + far)
                    .put("type", "thing")
                    .put("description", "entity " + far + " belongs to group " + (far % 97));
            relationships
                    .addObject()
                    .put("source", "entity " + (5 * item % entityCount))
                    .put("target", "entity " + far)
                    .put("description", "refers to");
            return (JsonNode) answer;
        };
    }

    private static final String[] SUBJECTS = {
        "The scheduler",
        "A worker",
        "The index",
        "Each plan",
        "The cache",
        "An agent",
        "The loader",
        "The compiler",
        "A replica",
        "The gateway",
        "The tokenizer",
        "A request"
    };
    private static final String[] VERBS = {
        "reads",
        "writes",
        "validates",
        "rejects",
        "compresses",
        "retries",
        "splits",
        "merges",
        "records",
        "replays",
        "ranks",
        "forwards"
    };
    private static final String[] OBJECTS = {
        "the configuration file",
        "every pending batch",
        "a stale snapshot",
        "the nearest neighbours",
        "incoming documents",
        "the audit log",
        "each failed call",
        "the vector graph",
        "a cassette of answers",
        "the query plan",
        "the access token",
        "a page of results"
    };
    private static final String[] TAILS = {
        "before the deadline passes",
        "when the queue is full",
        "after a restart",
        "under heavy load",
        "for every tenant",
        "while holding the lock",
        "once per minute",
        "without blocking readers"
    };

    /** English-like documents for the in-process model: {@code files} files of {@code paragraphs} paragraphs. */
    static void writeProseDocs(Path dir, int files, int paragraphs, long seed) throws IOException {
        Files.createDirectories(dir);
        Random random = new Random(seed);
        for (int f = 0; f < files; f++) {
            StringBuilder text = new StringBuilder("# Topic ").append(f).append("\n\n");
            for (int p = 0; p < paragraphs; p++) {
                if (p % 4 == 0) {
                    text.append("## Part ").append(p / 4).append("\n\n");
                }
                for (int s = 0; s < 5; s++) {
                    text.append(SUBJECTS[random.nextInt(SUBJECTS.length)])
                            .append(' ')
                            .append(VERBS[random.nextInt(VERBS.length)])
                            .append(' ')
                            .append(OBJECTS[random.nextInt(OBJECTS.length)])
                            .append(' ')
                            .append(TAILS[random.nextInt(TAILS.length)])
                            .append(". ");
                }
                text.append("\n\n");
            }
            Files.writeString(dir.resolve(String.format("topic-%04d.md", f)), text);
        }
    }
}
