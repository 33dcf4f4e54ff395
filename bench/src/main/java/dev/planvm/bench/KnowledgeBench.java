package dev.planvm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.knowledge.Embedders;
import dev.planvm.knowledge.IndexSettings;
import dev.planvm.knowledge.KnowledgeBase;
import dev.planvm.knowledge.KnowledgeBases;
import dev.planvm.knowledge.KnowledgeTools;
import dev.planvm.knowledge.QuerySettings;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.IndexListener;
import dev.planvm.knowledge.spi.IndexReport;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Figures of the knowledge module (a plain program, wall clock, one JVM):
 * <ol>
 *   <li>index throughput with the in-process model: English-like documents, chunks per second (parse, chunk,
 *       embed, write, commit);</li>
 *   <li>{@code vector_search} at 10,000 and 100,000 chunks with synthetic vectors: index build time, recall@10
 *       of the HNSW search against exact brute force over the same vectors, p50/p99 per fan-out; then the whole
 *       tool call at each size, its query embedded by the in-process model per call (p50/p99);</li>
 *   <li>{@code vector_search} end to end with the in-process model (query embedding included);</li>
 *   <li>{@code retrieve_knowledge_graph} p50/p99 at 10,000 entities.</li>
 * </ol>
 *
 * <p>{@code bench/run --main dev.planvm.bench.KnowledgeBench [--sizes 10000,100000] [--queries 1000]
 * [--fanouts 10,20,50,100] [--m 16] [--beam 100] [--uniform] [--real-files 100] [--entities 10000] [--skip-real]
 * [--rounds R] [--tool-queries N]} (R latency rounds per setting: the machine is shared, so a round can be disturbed;
 * N whole vector_search tool calls per size, 0 to skip them)
 */
public final class KnowledgeBench {

    private int[] sizes = {10_000, 100_000};
    private int queries = 1000;
    private int[] fanouts = {10, 20, 50, 100};
    private int m = IndexSettings.DEFAULT_HNSW_M;
    private int beam = IndexSettings.DEFAULT_HNSW_BEAM_WIDTH;
    private boolean uniform;
    private int realFiles = 100;
    private int entities = 10_000;
    private boolean skipReal;
    private int rounds = 1;
    private int realRecall = 5000;
    private int toolQueries = 300;

    public static void main(String[] args) throws Exception {
        KnowledgeBench bench = new KnowledgeBench();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--sizes" -> bench.sizes = ints(args[++i]);
                case "--queries" -> bench.queries = Integer.parseInt(args[++i]);
                case "--fanouts" -> bench.fanouts = ints(args[++i]);
                case "--m" -> bench.m = Integer.parseInt(args[++i]);
                case "--beam" -> bench.beam = Integer.parseInt(args[++i]);
                case "--uniform" -> bench.uniform = true;
                case "--real-files" -> bench.realFiles = Integer.parseInt(args[++i]);
                case "--entities" -> bench.entities = Integer.parseInt(args[++i]);
                case "--skip-real" -> bench.skipReal = true;
                case "--rounds" -> bench.rounds = Integer.parseInt(args[++i]);
                case "--real-recall" -> bench.realRecall = Integer.parseInt(args[++i]);
                case "--tool-queries" -> bench.toolQueries = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        bench.run();
        System.exit(0);
    }

    private void run() throws Exception {
        Path work = Files.createTempDirectory("planvm-knowledge-bench");
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                .getSystemLoadAverage();
        System.out.printf("load average at start: %.1f (wall-clock tails grow with it; cpu figures do not)%n", load);
        System.out.printf(
                "knowledge bench: JDK %s, %d processors, max heap %d MB, HNSW M=%d beamWidth=%d, %s vectors%n",
                Runtime.version(),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20,
                m,
                beam,
                uniform ? "uniform random" : "clustered (latent dimension " + KnowledgeBenchData.LATENT + ")");
        try {
            if (!skipReal) {
                realModel(work.resolve("real"));
                if (realRecall > 0) {
                    long start = System.nanoTime();
                    KnowledgeBenchData real = KnowledgeBenchData.embedded(Embedders.local(), realRecall, 300, 11);
                    System.out.printf(
                            "%nreal vectors: %,d paragraphs and 300 questions embedded by the in-process model in %.1f s%n",
                            realRecall, (System.nanoTime() - start) / 1e9);
                    recall(work.resolve("real-recall"), real, realRecall, 300, "real all-MiniLM-L6-v2-q vectors");
                }
            }
            for (int size : sizes) {
                System.gc();
                synthetic(work.resolve("synthetic-" + size), size);
            }
            System.gc();
            graph(work.resolve("graph"));
        } finally {
            try (var paths = Files.walk(work)) {
                paths.sorted(java.util.Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        }
    }

    /** Index throughput and end-to-end query latency with the in-process all-MiniLM-L6-v2-q. */
    private void realModel(Path dir) throws Exception {
        KnowledgeBenchData.writeProseDocs(dir.resolve("docs"), realFiles, 24, 7);
        Embedders.local().embed(List.of("warm up the model"));
        KnowledgeBases bases = KnowledgeBases.at(dir.resolve("kb"));
        IndexReport report = bases.indexer(
                        "prose",
                        Embedders.local(),
                        IndexSettings.builder().hnsw(m, beam).build())
                .index(List.of(dir.resolve("docs")), dir, IndexListener.none());
        double seconds = report.elapsed().toNanos() / 1e9;
        System.out.printf(
                "%nindex, in-process model: %d files, %d chunks in %.1f s = %.1f chunks/s (parse+chunk+embed+write)%n",
                report.added().size(), report.chunksEmbedded(), seconds, report.chunksEmbedded() / seconds);
        IndexReport again = bases.indexer(
                        "prose",
                        Embedders.local(),
                        IndexSettings.builder().hnsw(m, beam).build())
                .index(List.of(dir.resolve("docs")), dir, IndexListener.none());
        System.out.printf(
                "re-index, nothing changed: %d files unchanged in %d ms%n",
                again.unchanged(), again.elapsed().toMillis());
        try (KnowledgeBase kb = bases.open("prose", Optional.empty(), QuerySettings.defaults())) {
            Tool search = KnowledgeTools.of(kb).get(0);
            String[] texts = {
                "which worker retries failed calls",
                "compress the audit log under heavy load",
                "replay a cassette after a restart",
                "rank the nearest neighbours",
                "validate the configuration file"
            };
            for (int i = 0; i < 50; i++) {
                invoke(search, texts[i % texts.length] + " " + i);
            }
            long[] times = new long[300];
            for (int i = 0; i < times.length; i++) {
                long start = System.nanoTime();
                invoke(search, texts[i % texts.length] + " #" + i);
                times[i] = System.nanoTime() - start;
            }
            System.out.printf(
                    "vector_search end to end (query embedded by the in-process model, %d chunks): %s%n",
                    report.chunksTotal(), percentiles(times));
        }
    }

    private static void invoke(Tool search, String query) {
        search.invoke(JsonNodeFactory.instance.objectNode().put("query", query).put("top_k", 10), CallContext.of(0));
    }

    /**
     * Build time, recall@10 against brute force, and latency per fan-out, with synthetic vectors; then the
     * whole {@code vector_search} tool call over the same index with queries embedded by the in-process model.
     */
    private void synthetic(Path dir, int size) throws Exception {
        KnowledgeBenchData data = new KnowledgeBenchData(size, queries, 1, !uniform, 42);
        recall(dir, data, size, queries, uniform ? "synthetic uniform vectors" : "synthetic clustered vectors");
        if (toolQueries > 0) {
            toolCall(KnowledgeBases.at(dir.resolve("kb")), data, size);
        }
    }

    /**
     * The full {@code vector_search} tool call at {@code size} chunks: each call embeds its own question with the
     * in-process all-MiniLM-L6-v2-q (a new text every call, so nothing is cached), searches the HNSW index of
     * synthetic 384-d vectors with the default fan-out, and builds the tool's JSON answer (top 10).
     */
    private void toolCall(KnowledgeBases bases, KnowledgeBenchData data, int size) {
        Embedder model = Embedders.local();
        Embedder realQueries = new Embedder() {
            @Override
            public String model() {
                return data.embedder().model(); // the index's vectors; its queries come from the real model
            }

            @Override
            public List<float[]> embed(List<String> texts) {
                return model.embed(texts);
            }
        };
        String[] texts = {
            "which worker retries failed calls",
            "compress the audit log under heavy load",
            "replay a cassette after a restart",
            "rank the nearest neighbours",
            "validate the configuration file"
        };
        try (KnowledgeBase kb =
                KnowledgeBase.open(bases.directory("items"), "items", realQueries, QuerySettings.defaults())) {
            Tool search = KnowledgeTools.of(kb).get(0);
            if (!search.name().equals("vector_search")) {
                throw new IllegalStateException("expected vector_search, got " + search.name());
            }
            for (int i = 0; i < Math.min(100, toolQueries); i++) {
                invoke(search, "warm-up " + texts[i % texts.length] + " " + i);
            }
            for (int round = 0; round < rounds; round++) {
                long[] times = new long[toolQueries];
                long[] cpu = new long[toolQueries];
                int hits = 0;
                for (int q = 0; q < toolQueries; q++) {
                    String query = texts[q % texts.length] + " (round " + round + ", question " + q + ")";
                    long start = System.nanoTime();
                    long cpuStart = THREADS.getCurrentThreadCpuTime();
                    hits += search.invoke(
                                    JsonNodeFactory.instance
                                            .objectNode()
                                            .put("query", query)
                                            .put("top_k", 10),
                                    CallContext.of(0))
                            .size();
                    cpu[q] = THREADS.getCurrentThreadCpuTime() - cpuStart;
                    times[q] = System.nanoTime() - start;
                }
                if (hits != 10 * toolQueries) {
                    throw new IllegalStateException(
                            "expected 10 hits per call, got " + hits + " in " + toolQueries + " calls");
                }
                System.out.printf(
                        "  vector_search tool call at %,d chunks (query embedded in-process, then searched): %s "
                                + "[calling thread's cpu %s; the model's own threads not counted]%n",
                        size, percentiles(times), cpuPercentiles(cpu));
            }
        }
    }

    private void recall(Path dir, KnowledgeBenchData data, int size, int queries, String label) throws Exception {
        KnowledgeBenchData.writeItemDocs(dir.resolve("docs"), size);
        KnowledgeBases bases = KnowledgeBases.at(dir.resolve("kb"));
        IndexSettings settings =
                IndexSettings.builder().chunking(16, 0).hnsw(m, beam).build();
        IndexReport report = bases.indexer("items", data.embedder(), settings)
                .index(List.of(dir.resolve("docs")), dir, IndexListener.none());
        if (report.chunksTotal() != size) {
            throw new IllegalStateException("expected " + size + " chunks, got " + report.chunksTotal());
        }
        System.out.printf(
                "%n%,d chunks (%s, %d-d): indexed in %.1f s (%.0f chunks/s without embedding), %d MB on disk%n",
                size,
                label,
                KnowledgeBenchData.DIMENSION,
                report.elapsed().toNanos() / 1e9,
                size / (report.elapsed().toNanos() / 1e9),
                bases.stats("items").bytes() >> 20);
        long exactStart = System.nanoTime();
        int[][] exact = IntStream.range(0, queries)
                .parallel()
                .mapToObj(q -> exactTop10(data.items, data.queries[q]))
                .toArray(int[][]::new);
        System.out.printf(
                "exact brute force: %.2f ms/query (2 threads)%n", (System.nanoTime() - exactStart) / 1e6 / queries * 2);
        for (int fanout : fanouts) {
            try (KnowledgeBase kb =
                    openItems(bases, data, QuerySettings.defaults().withFanout(fanout))) {
                for (int w = 0; w < 2000; w++) {
                    kb.search("query " + (w % queries), 10, Integer.MAX_VALUE);
                }
                double recall = 0;
                for (int q = 0; q < queries; q++) {
                    Set<Integer> found = new HashSet<>();
                    kb.search("query " + q, 10, Integer.MAX_VALUE)
                            .forEach(hit -> found.add(KnowledgeBenchData.itemOf(hit.content())));
                    int agree = 0;
                    for (int id : exact[q]) {
                        agree += found.contains(id) ? 1 : 0;
                    }
                    recall += agree / 10.0;
                }
                StringBuilder latencies = new StringBuilder();
                for (int round = 0; round < rounds; round++) {
                    long[] times = new long[queries];
                    long[] cpu = new long[queries];
                    for (int q = 0; q < queries; q++) {
                        long start = System.nanoTime();
                        long cpuStart = THREADS.getCurrentThreadCpuTime();
                        kb.search("query " + q, 10, Integer.MAX_VALUE);
                        cpu[q] = THREADS.getCurrentThreadCpuTime() - cpuStart;
                        times[q] = System.nanoTime() - start;
                    }
                    latencies
                            .append(round == 0 ? "" : "; ")
                            .append(percentiles(times))
                            .append(" [cpu ")
                            .append(cpuPercentiles(cpu))
                            .append(']');
                }
                System.out.printf("  fan-out %4d: recall@10 %.4f, search %s%n", fanout, recall / queries, latencies);
            }
        }
    }

    private static KnowledgeBase openItems(KnowledgeBases bases, KnowledgeBenchData data, QuerySettings settings) {
        return KnowledgeBase.open(bases.directory("items"), "items", data.embedder(), settings);
    }

    /** Knowledge-graph query latency at about {@code entities} entities. */
    private void graph(Path dir) throws Exception {
        int chunks = entities / 5;
        KnowledgeBenchData data = new KnowledgeBenchData(chunks, queries, entities, !uniform, 43);
        KnowledgeBenchData.writeItemDocs(dir.resolve("docs"), chunks);
        KnowledgeBases bases = KnowledgeBases.at(dir.resolve("kb"));
        IndexReport report = bases.indexer(
                        "graph",
                        data.embedder(),
                        IndexSettings.builder()
                                .chunking(16, 0)
                                .hnsw(m, beam)
                                .graph(data.extractor(), chunks)
                                .build())
                .index(List.of(dir.resolve("docs")), dir, IndexListener.none());
        IndexReport.GraphReport graph = report.graph().orElseThrow();
        System.out.printf(
                "%nknowledge graph: %,d entities, %,d relationships from %,d chunks, built in %.1f s%n",
                graph.entities(),
                graph.relationships(),
                chunks,
                report.elapsed().toNanos() / 1e9);
        try (KnowledgeBase kb =
                KnowledgeBase.open(bases.directory("graph"), "graph", data.embedder(), QuerySettings.defaults())) {
            Tool tool = KnowledgeTools.of(kb).get(1);
            for (int w = 0; w < 2000; w++) {
                tool.invoke(
                        JsonNodeFactory.instance.objectNode().put("query", "query " + (w % queries)),
                        CallContext.of(0));
            }
            for (int round = 0; round < rounds; round++) {
                long[] times = new long[queries];
                long[] cpu = new long[queries];
                long entitiesSeen = 0;
                for (int q = 0; q < queries; q++) {
                    long start = System.nanoTime();
                    long cpuStart = THREADS.getCurrentThreadCpuTime();
                    var answer = tool.invoke(
                            JsonNodeFactory.instance.objectNode().put("query", "query " + q), CallContext.of(0));
                    cpu[q] = THREADS.getCurrentThreadCpuTime() - cpuStart;
                    times[q] = System.nanoTime() - start;
                    entitiesSeen += answer.get("entities").size();
                }
                System.out.printf(
                        "retrieve_knowledge_graph (5 seeds, depth 2, <= 50 entities): %s [cpu %s], %.1f entities per answer%n",
                        percentiles(times), cpuPercentiles(cpu), entitiesSeen / (double) queries);
            }
        }
    }

    private static int[] exactTop10(float[][] items, float[] query) {
        int[] best = new int[10];
        float[] scores = new float[10];
        Arrays.fill(scores, Float.NEGATIVE_INFINITY);
        for (int i = 0; i < items.length; i++) {
            float[] item = items[i];
            float dot = 0;
            for (int d = 0; d < item.length; d++) {
                dot += item[d] * query[d];
            }
            if (dot > scores[9]) {
                int at = 9;
                while (at > 0 && scores[at - 1] < dot) {
                    scores[at] = scores[at - 1];
                    best[at] = best[at - 1];
                    at--;
                }
                scores[at] = dot;
                best[at] = i;
            }
        }
        return best;
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /** CPU time of the querying thread: what a query costs, without the waits of a shared machine. */
    private static String cpuPercentiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format(
                "p50 %.2f ms, p99 %.2f ms",
                sorted[sorted.length / 2] / 1e6, sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6);
    }

    private static String percentiles(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return String.format(
                "p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d queries)",
                sorted[sorted.length / 2] / 1e6,
                sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6,
                sorted[sorted.length - 1] / 1e6,
                sorted.length);
    }

    private static int[] ints(String list) {
        return Arrays.stream(list.split(","))
                .mapToInt(s -> Integer.parseInt(s.strip()))
                .toArray();
    }
}
