package dev.planvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.http.PlanServer;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Load on {@code planvm serve}: C concurrent clients (default 100) on loopback, each submitting small
 * replayed plans ({@code POST /v1/runs?wait=true}: a replayed tool call, two assigns; every run durable in
 * the run store, {@code process} durability) one after the other, for a warm-up and then a bounded
 * measurement. Prints runs/s, p50/p99/max latency, errors by kind, and the heap (the most used after a
 * collection, and the peak). Server and clients share this JVM and its cores.
 *
 * <p>{@code bench/run --main dev.planvm.bench.ServerLoadBench [--clients 100] [--seconds 20] [--warmup 5]
 * [--durability process|full] [--tracing] [--interleaved R]}; {@code --tracing} gives the VM an OpenTelemetry SDK that exports
 * every span over OTLP/HTTP to a receiver in this process; with JDK 21+ ({@code JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64}) requests and
 * runs use virtual threads.
 */
public final class ServerLoadBench {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "${q}"}, "output_vars": "docs"}},
             {"seq_no": 1, "type": "assign", "parameters": {"n": "${len(docs)}"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${q + ': ' + n + ' documents'}"}}]""";
    private static final String CASSETTE = """
            {"format": "planvm-cassette/1", "interactions": [{"type": "tool", "tool": "vector_search", "params": {"query": "tidb"},
             "output": [{"content": "TiDB supports foreign keys since 6.6", "source_uri": "a"}, {"content": "b", "source_uri": "b"}]}]}""";
    private static final String BODY = "{\"plan\": " + PLAN
            + ", \"inputs\": {\"q\": \"tidb\"}, \"mode\": \"replay\", \"cassette\": " + CASSETTE + "}";

    public static void main(String[] args) throws Exception {
        int clients = option(args, "--clients", 100);
        int seconds = option(args, "--seconds", 20);
        int warmup = option(args, "--warmup", 5);
        RunStore.Durability durability =
                Arrays.asList(args).contains("full") ? RunStore.Durability.FULL : RunStore.Durability.PROCESS;
        boolean tracing = Arrays.asList(args).contains("--tracing");
        int rounds = option(args, "--interleaved", 0);
        if (rounds > 0) {
            interleaved(clients, seconds, warmup, durability, rounds);
            return;
        }
        Path dir = Files.createTempDirectory("planvm-server-bench");
        BenchTracing spans = tracing ? BenchTracing.start() : null;
        PlanVm vm = tracing
                ? PlanVm.builder().openTelemetry(spans.openTelemetry()).build()
                : PlanVm.builder().build();
        try (RunStore store = RunStore.open(
                        dir.resolve("runs.db"), vm.redactor(), RunStore.Settings.DEFAULT.withDurability(durability));
                PlanService service =
                        new PlanService(vm, store, ServiceSettings.DEFAULT.withMaxActiveRuns(clients * 2))) {
            PlanServer server = PlanServer.start(
                    service,
                    ServerSettings.builder().port(0).maxRequests(clients * 2).build());
            System.out.printf(
                    Locale.ROOT,
                    "planvm serve load: %d clients, POST /v1/runs?wait=true (replayed 3-step plan, "
                            + "durable, %s durability), JDK %s, %d cores, virtual threads: %s, tracing: %s%n",
                    clients,
                    durability.label(),
                    Runtime.version(),
                    Runtime.getRuntime().availableProcessors(),
                    Runtime.version().feature() >= 21,
                    tracing ? "on (OTLP/HTTP to a receiver process on loopback)" : "off");
            Load load = new Load(server.url(), clients);
            load.run(Duration.ofSeconds(warmup));
            System.gc();
            long heapBefore = usedHeap();
            resetPeaks();
            long cpuBefore = processCpuNanos();
            long exportBefore = exportCpuNanos();
            long jitBefore = ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
            long gcBefore = gcMillis();
            Result result = load.run(Duration.ofSeconds(seconds));
            long cpu = processCpuNanos() - cpuBefore;
            long exportCpu = exportCpuNanos() - exportBefore;
            long jit = ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jitBefore;
            long gc = gcMillis() - gcBefore;
            System.gc();
            long heapAfter = usedHeap();
            System.out.printf(
                    Locale.ROOT,
                    "%,d runs in %.1f s: %.0f runs/s; latency p50 %.1f ms, p99 %.1f ms, max %.1f ms; " + "errors: %s%n",
                    result.runs(),
                    result.seconds(),
                    result.runs() / result.seconds(),
                    result.percentile(50),
                    result.percentile(99),
                    result.percentile(100),
                    result.errors().isEmpty() ? "none" : result.errors());
            // CPU of this JVM (server, clients and, traced, the OTLP receiver) per run: steadier than runs/s
            // on a machine that other work shares
            System.out.printf(
                    Locale.ROOT,
                    "CPU: %.0f µs per run (%.2f of %d cores busy)%n",
                    cpu / 1000.0 / Math.max(1, result.runs()),
                    cpu / 1e9 / result.seconds(),
                    Runtime.getRuntime().availableProcessors());
            // two parts of that CPU that are not the runs': the JIT still compiling after the warm-up (more code
            // to compile with tracing on) and the collector
            System.out.printf(
                    Locale.ROOT, "JIT: %,d ms compiling, GC: %,d ms collecting during the measurement%n", jit, gc);
            if (tracing) {
                // the SDK's export threads alone (batching, protobuf encoding, the JDK HTTP sender): a part of
                // the CPU above that does not depend on how the runs' threads were scheduled
                System.out.printf(
                        Locale.ROOT,
                        "export threads CPU: %.1f µs per run%n",
                        exportCpu / 1000.0 / Math.max(1, result.runs()));
            }
            System.out.printf(
                    Locale.ROOT,
                    "heap: %.0f MiB used after GC before the measurement, %.0f MiB after it; peak %.0f MiB "
                            + "(max %.0f MiB)%n",
                    heapBefore / 1048576.0,
                    heapAfter / 1048576.0,
                    peakHeap() / 1048576.0,
                    Runtime.getRuntime().maxMemory() / 1048576.0);
            System.out.printf(
                    Locale.ROOT,
                    "store: %,d runs, %.1f MiB%n",
                    store.countByStatus().values().stream().mapToInt(i -> i).sum(),
                    Files.size(dir.resolve("runs.db")) / 1048576.0);
            server.stop(Duration.ofSeconds(5));
        }
        vm.close();
        if (spans != null) {
            String[] took = spans.close().split(" ");
            System.out.printf(Locale.ROOT, "OTLP export requests: %s, %s bytes%n", took[0], took[1]);
        }
    }

    /**
     * {@code --interleaved R}: an untraced and a traced server in this one JVM (each its own VM, run store and
     * port), loaded in turns of {@code seconds} each, R rounds, the order alternating round by round, after
     * {@code warmup} seconds on each: both sides share the JIT's state and whatever else loads the machine
     * at the time, which JVM-to-JVM pairs do not.
     */
    private static void interleaved(int clients, int seconds, int warmup, RunStore.Durability durability, int rounds)
            throws Exception {
        BenchTracing spans = BenchTracing.start();
        PlanVm plain = PlanVm.builder().build();
        PlanVm traced = PlanVm.builder().openTelemetry(spans.openTelemetry()).build();
        Path dir = Files.createTempDirectory("planvm-server-bench");
        try (RunStore offStore = RunStore.open(
                        dir.resolve("off.db"), plain.redactor(), RunStore.Settings.DEFAULT.withDurability(durability));
                RunStore onStore = RunStore.open(
                        dir.resolve("on.db"), traced.redactor(), RunStore.Settings.DEFAULT.withDurability(durability));
                PlanService offService =
                        new PlanService(plain, offStore, ServiceSettings.DEFAULT.withMaxActiveRuns(clients * 2));
                PlanService onService =
                        new PlanService(traced, onStore, ServiceSettings.DEFAULT.withMaxActiveRuns(clients * 2))) {
            ServerSettings settings =
                    ServerSettings.builder().port(0).maxRequests(clients * 2).build();
            PlanServer off = PlanServer.start(offService, settings);
            PlanServer on = PlanServer.start(onService, settings);
            System.out.printf(
                    Locale.ROOT,
                    "planvm serve load, interleaved: %d clients, an untraced and a traced server in one JVM, "
                            + "%d rounds of %d s each, JDK %s, %d cores%n",
                    clients,
                    rounds,
                    seconds,
                    Runtime.version(),
                    Runtime.getRuntime().availableProcessors());
            Load offLoad = new Load(off.url(), clients);
            Load onLoad = new Load(on.url(), clients);
            offLoad.run(Duration.ofSeconds(warmup));
            onLoad.run(Duration.ofSeconds(warmup));
            List<Double> changes = new ArrayList<>();
            List<Double> cpuChanges = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                double[] offRound;
                double[] onRound;
                if (round % 2 == 1) {
                    offRound = round(offLoad, seconds);
                    onRound = round(onLoad, seconds);
                } else {
                    onRound = round(onLoad, seconds);
                    offRound = round(offLoad, seconds);
                }
                double change = (onRound[0] / offRound[0] - 1) * 100;
                double cpuChange = (onRound[1] / offRound[1] - 1) * 100;
                changes.add(change);
                cpuChanges.add(cpuChange);
                System.out.printf(
                        Locale.ROOT,
                        "round %d (%s): off %.0f runs/s, %.0f µs CPU per run; on %.0f runs/s, %.0f µs per run: "
                                + "%+.1f %% runs/s, %+.1f %% CPU per run%n",
                        round,
                        round % 2 == 1 ? "off, on" : "on, off",
                        offRound[0],
                        offRound[1],
                        onRound[0],
                        onRound[1],
                        change,
                        cpuChange);
            }
            System.out.printf(
                    Locale.ROOT,
                    "median: %+.1f %% runs/s, %+.1f %% CPU per run (traced over untraced)%n",
                    median(changes),
                    median(cpuChanges));
            off.stop(Duration.ofSeconds(5));
            on.stop(Duration.ofSeconds(5));
        }
        plain.close();
        traced.close();
        String[] took = spans.close().split(" ");
        System.out.printf(Locale.ROOT, "OTLP export requests: %s, %s bytes%n", took[0], took[1]);
    }

    /** One turn of load: runs/s and this JVM's CPU µs per run. */
    private static double[] round(Load load, int seconds) throws InterruptedException {
        long cpuBefore = processCpuNanos();
        Result result = load.run(Duration.ofSeconds(seconds));
        long cpu = processCpuNanos() - cpuBefore;
        return new double[] {result.runs() / result.seconds(), cpu / 1000.0 / Math.max(1, result.runs())};
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionTime)
                .sum();
    }

    /** CPU time used so far by the live threads named like the SDK's span exporter's. */
    private static long exportCpuNanos() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (java.lang.management.ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null
                    && (info.getThreadName().startsWith("BatchSpanProcessor")
                            || info.getThreadName().startsWith("jdkhttp-executor"))) {
                sum += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return sum;
    }

    /** The clients. */
    private static final class Load {
        private final HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        private final HttpRequest request;
        private final int clients;
        private final ObjectMapper json = JsonMappers.mapper(JsonLimits.STORE);

        Load(String url, int clients) {
            this.request = HttpRequest.newBuilder(URI.create(url + "/v1/runs?wait=true"))
                    .timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(BODY))
                    .build();
            this.clients = clients;
        }

        Result run(Duration length) throws InterruptedException {
            long end = System.nanoTime() + length.toNanos();
            List<long[]> latencies = new ArrayList<>();
            ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
            AtomicLong runs = new AtomicLong();
            CountDownLatch done = new CountDownLatch(clients);
            long start = System.nanoTime();
            for (int c = 0; c < clients; c++) {
                long[] mine = new long[200_000];
                latencies.add(mine);
                Thread thread = new Thread(
                        () -> {
                            int n = 0;
                            try {
                                while (System.nanoTime() < end) {
                                    long t = System.nanoTime();
                                    String problem = send();
                                    long took = System.nanoTime() - t;
                                    if (problem == null) {
                                        if (n < mine.length - 1) {
                                            mine[++n] = took;
                                        }
                                        runs.incrementAndGet();
                                    } else {
                                        errors.computeIfAbsent(problem, p -> new LongAdder())
                                                .increment();
                                    }
                                }
                            } finally {
                                mine[0] = n;
                                done.countDown();
                            }
                        },
                        "client-" + c);
                thread.setDaemon(true);
                thread.start();
            }
            done.await();
            double seconds = (System.nanoTime() - start) / 1e9;
            int total = latencies.stream().mapToInt(l -> (int) l[0]).sum();
            long[] all = new long[total];
            int i = 0;
            for (long[] mine : latencies) {
                System.arraycopy(mine, 1, all, i, (int) mine[0]);
                i += (int) mine[0];
            }
            Arrays.sort(all);
            java.util.Map<String, Long> errorCounts = new java.util.TreeMap<>();
            errors.forEach((k, v) -> errorCounts.put(k, v.sum()));
            return new Result(runs.get(), seconds, all, errorCounts);
        }

        /** One run; null when it succeeded with the expected answer, else what went wrong. */
        private String send() {
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    return "HTTP " + response.statusCode();
                }
                JsonNode outcome = json.readTree(response.body());
                return "tidb: 2 documents".equals(outcome.path("result").asText()) ? null : "wrong answer";
            } catch (Exception e) {
                return e.getClass().getSimpleName();
            }
        }
    }

    private record Result(long runs, double seconds, long[] sorted, java.util.Map<String, Long> errors) {
        double percentile(int p) {
            if (sorted.length == 0) {
                return 0;
            }
            int index = Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1);
            return sorted[Math.max(0, index)] / 1e6;
        }
    }

    private static int option(String[] args, String name, int otherwise) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return otherwise;
    }

    private static long usedHeap() {
        return Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
    }

    private static void resetPeaks() {
        ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
    }

    private static long peakHeap() {
        return ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed())
                .sum();
    }
}
