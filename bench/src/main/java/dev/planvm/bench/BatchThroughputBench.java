package dev.planvm.bench;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.Batch;
import dev.planvm.vm.batch.PlanOutcome;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Two batch measurements, each from files on disk through the public {@link Batch} engine
 * (loading and validating every plan included):
 * <ul>
 *   <li>{@code throughput}: every corpus plan that runs with stand-in tools, copied until there are
 *       {@code --plans} (default 10,000), each replayed from its cassette without timing;</li>
 *   <li>{@code inflight}: {@code --plans} copies of a plan whose one call waits 100 ms on an
 *       installed tool, all in flight at once ({@code --concurrency} = plans).</li>
 * </ul>
 * Prints plans/s, wall time, errors, and the heap used (run it with {@code BENCH_JAVA_OPTS=-Xmx512m}).
 *
 * <p>{@code bench/run --main dev.planvm.bench.BatchThroughputBench throughput|inflight [--plans N] [--concurrency N]}
 */
public final class BatchThroughputBench {

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "throughput";
        int plans = 10_000;
        int concurrency = mode.equals("inflight") ? -1 : Batch.defaultConcurrency();
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--plans")) {
                plans = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--concurrency")) {
                concurrency = Integer.parseInt(args[++i]);
            }
        }
        if (concurrency < 0) {
            concurrency = plans;
        }
        Path dir = Files.createTempDirectory("planvm-bench-batch");
        List<Path> files = mode.equals("inflight") ? waitingPlans(dir, plans) : replayedCorpus(dir, plans);
        PlanVm vm = PlanVm.builder()
                .tracing(false)
                .tool(Tool.of("wait_100ms", "Waits 100 ms.", (params, context) -> {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return IntNode.valueOf(params.path("n").asInt());
                }))
                .build();
        Batch.Builder builder = Batch.builder(vm).concurrency(concurrency);
        if (mode.equals("throughput")) {
            builder.replay(dir, false);
        }
        Batch batch = builder.build();
        System.gc();
        long start = System.nanoTime();
        List<PlanOutcome> outcomes = batch.run(files, (index, outcome) -> {});
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Long> counts =
                outcomes.stream().collect(Collectors.groupingBy(o -> o.status().label(), Collectors.counting()));
        System.out.printf(
                "%s: %d plans, concurrency %d, %s threads, JDK %s%n",
                mode,
                files.size(),
                concurrency,
                Runtime.version().feature() >= 21 ? "virtual" : "platform",
                Runtime.version());
        System.out.printf(
                "wall %.2f s, %.0f plans/s, outcomes %s, heap max %d MB, heap used at peak %d MB%n",
                seconds, files.size() / seconds, counts, Runtime.getRuntime().maxMemory() >> 20, peakHeapMb());
    }

    /** Corpus plans that replay, each with its stand-in cassette, copied up to {@code count} files. */
    private static List<Path> replayedCorpus(Path dir, int count) throws Exception {
        PlanVm vm = PlanVm.builder().build();
        List<Path> sources;
        try (Stream<Path> list = Files.list(Corpus.directory())) {
            sources = list.filter(p -> p.getFileName().toString().matches("plan-\\d+\\.json"))
                    .sorted()
                    .toList();
        }
        List<Path[]> runnable = new ArrayList<>();
        for (Path source : sources) {
            LoadResult loaded = vm.loader().load(source);
            Cassette cassette = loaded.valid() ? StandIns.record(loaded.plan()) : null;
            if (cassette != null) {
                Path cassetteFile = dir.resolve(
                        "stand-in-" + source.getFileName().toString().replace(".json", ".cassette.json"));
                cassette.write(cassetteFile);
                runnable.add(new Path[] {source, cassetteFile});
            }
        }
        List<Path> files = new ArrayList<>();
        for (int i = 0; files.size() < count; i++) {
            Path[] pair = runnable.get(i % runnable.size());
            String name = "copy" + (i / runnable.size()) + "-" + pair[0].getFileName();
            Files.copy(pair[0], dir.resolve(name));
            Files.copy(pair[1], dir.resolve(name.replace(".json", ".cassette.json")));
            files.add(dir.resolve(name));
        }
        System.out.printf(
                "%d corpus plans replay with stand-in cassettes; %d files written to %s%n",
                runnable.size(), files.size(), dir);
        return files;
    }

    /** {@code count} copies of a plan whose one call waits 100 ms. */
    private static List<Path> waitingPlans(Path dir, int count) throws Exception {
        List<Path> files = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Path file = dir.resolve("wait-" + i + ".json");
            Files.writeString(
                    file,
                    "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"wait_100ms\", "
                            + "\"tool_params\": {\"n\": " + i + "}, \"output_vars\": \"final_answer\"}}]");
            files.add(file);
        }
        return files;
    }

    private static long peakHeapMb() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak >> 20;
    }
}
