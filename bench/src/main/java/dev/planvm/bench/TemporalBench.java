package dev.planvm.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.temporal.PlanWorkers;
import dev.planvm.temporal.TemporalConnection;
import dev.planvm.temporal.TemporalPlans;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import io.temporal.client.WorkflowClient;
import io.temporal.testing.TestWorkflowEnvironment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Plans on Temporal against the local VM, with the same instant stand-in tools:
 * <ul>
 *   <li>{@code chain}: one plan of {@code --chain} dependent calls at a time: the cost of one call as
 *       an activity (a workflow task, the activity's schedule, poll and completion) against a local call;</li>
 *   <li>{@code corpus}: {@code --plans} corpus plans (those that run with stand-ins), {@code --in-flight} at
 *       once, on 1, 2 and 4 workers (each its own worker factory, as separate processes would be) of Temporal's
 *       in-process test server, and on the local VM: plans/s and activities/s.</li>
 * </ul>
 * With {@code --server HOST:PORT} the plans run on that server instead (e.g. {@code TemporalTestServer}
 * in another process, or {@code temporal server start-dev}), so the CPU this process spends per plan
 * is the workers' (and the client's) alone. Everything shares this machine's cores: the worker
 * counts show how throughput scales when workers compete for the same CPU, not when they bring
 * their own.
 *
 * <p>{@code bench/run --main dev.planvm.bench.TemporalBench [--plans N] [--in-flight K] [--chain C] [--workers 1,2,4]
 * [--server HOST:PORT]}
 */
public final class TemporalBench {

    private static final AtomicLong calls = new AtomicLong();
    /** The local VM is fast: it runs the corpus this many times, for a measurement of a few seconds. */
    private static final int LOCAL_PASSES = 20;

    public static void main(String[] args) throws Exception {
        int plans = 300;
        int inFlight = 32;
        int chain = 20;
        List<Integer> workerCounts = List.of(1, 2, 4);
        String server = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--plans" -> plans = Integer.parseInt(args[++i]);
                case "--in-flight" -> inFlight = Integer.parseInt(args[++i]);
                case "--chain" -> chain = Integer.parseInt(args[++i]);
                case "--workers" ->
                    workerCounts = java.util.Arrays.stream(args[++i].split(","))
                            .map(Integer::parseInt)
                            .toList();
                case "--server" -> server = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        List<Sample> corpus = corpus(plans);
        Set<String> tools = new TreeSet<>();
        corpus.forEach(sample -> tools.addAll(sample.tools()));
        tools.add("step");
        long start = System.nanoTime();
        TestWorkflowEnvironment env = server == null ? TestWorkflowEnvironment.newInstance() : null;
        TemporalConnection connection = server == null ? null : TemporalConnection.open(server, "default", Map.of());
        WorkflowClient client = env != null ? env.getWorkflowClient() : connection.client();
        System.out.printf(
                Locale.ROOT,
                "%s in %.1f s%n",
                env != null ? "in-process test server started" : "connected to " + server,
                seconds(System.nanoTime() - start));
        try {
            chain(client, chain, tools);
            System.out.printf(
                    Locale.ROOT,
                    "%ncorpus: %d plans (%d distinct corpus plans that run with stand-ins), %d in flight%n",
                    corpus.size(),
                    corpus.stream().map(Sample::name).distinct().count(),
                    inFlight);
            local(corpus, tools, 1);
            local(corpus, tools, inFlight);
            for (int workers : workerCounts) {
                temporal(client, corpus, tools, workers, inFlight);
            }
        } finally {
            if (env != null) {
                env.close();
            } else {
                connection.close();
            }
        }
    }

    /** One plan of {@code length} dependent calls at a time: the cost of one call, remote and local. */
    @SuppressWarnings("try") // the workers run while the plans do
    private static void chain(WorkflowClient client, int length, Set<String> tools) throws Exception {
        StringBuilder plan = new StringBuilder("[");
        for (int i = 0; i < length; i++) {
            plan.append(i == 0 ? "" : ",")
                    .append("{\"seq_no\": ")
                    .append(i)
                    .append(", \"type\": \"calling\", \"parameters\":")
                    .append(" {\"tool_name\": \"step\", \"tool_params\": {\"n\": \"")
                    .append(i == 0 ? "0" : "${v" + (i - 1) + "}")
                    .append("\"}, \"output_vars\": \"")
                    .append(i == length - 1 ? "final_answer" : "v" + i)
                    .append("\"}}");
        }
        String json = plan.append("]").toString();
        PlanVm vm = vm(tools);
        Plan local = vm.loader().load(json, "chain.json").planOrThrow();
        for (int i = 0; i < 200; i++) {
            vm.run(local, Map.of());
        }
        long start = System.nanoTime();
        int localRuns = 2000;
        for (int i = 0; i < localRuns; i++) {
            vm.run(local, Map.of());
        }
        double localPerCall = (System.nanoTime() - start) / 1e6 / localRuns / length;
        String queue = "bench-chain";
        try (PlanWorkers workers = workers(client, queue, tools).start()) {
            TemporalPlans plans = new TemporalPlans(client, queue);
            for (int i = 0; i < 5; i++) {
                plans.run(PlanRequest.live("chain.json", json, Map.of()));
            }
            int runs = 20;
            start = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                PlanResponse response = plans.run(PlanRequest.live("chain.json", json, Map.of()));
                if (!response.succeeded()) {
                    throw new IllegalStateException("chain failed: " + response.error());
                }
            }
            double perPlan = (System.nanoTime() - start) / 1e6 / runs;
            System.out.printf(
                    Locale.ROOT,
                    "chain of %d dependent calls, one plan at a time: Temporal %.1f ms per plan,"
                            + " %.2f ms per call; local VM %.3f ms per call; overhead per call as an activity: %.2f ms%n",
                    length,
                    perPlan,
                    perPlan / length,
                    localPerCall,
                    perPlan / length - localPerCall);
        }
    }

    private static void local(List<Sample> corpus, Set<String> tools, int threads) throws Exception {
        PlanVm vm = vm(tools);
        for (int warm = 0; warm < 5; warm++) {
            for (Sample sample : corpus) {
                vm.run(sample.plan(), Map.of());
            }
        }
        calls.set(0);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        List<Future<RunResult>> results = new ArrayList<>();
        for (int pass = 0; pass < LOCAL_PASSES; pass++) {
            for (Sample sample : corpus) {
                results.add(pool.submit(() -> vm.run(sample.plan(), Map.of())));
            }
        }
        int failed = 0;
        for (Future<RunResult> result : results) {
            failed += result.get().succeeded() ? 0 : 1;
        }
        double took = seconds(System.nanoTime() - start);
        pool.shutdown();
        System.out.printf(
                Locale.ROOT,
                "  local VM, %2d thread%s:       %8.0f plans/s  %9.0f calls/s  (%d failed)%n",
                threads,
                threads == 1 ? " " : "s",
                results.size() / took,
                calls.get() / took,
                failed);
    }

    private static void temporal(
            WorkflowClient client, List<Sample> corpus, Set<String> tools, int workerCount, int inFlight)
            throws Exception {
        String queue = "bench-corpus-" + workerCount;
        List<PlanWorkers> workers = new ArrayList<>();
        for (int i = 0; i < workerCount; i++) {
            workers.add(workers(client, queue, tools).start());
        }
        TemporalPlans plans = new TemporalPlans(client, queue);
        ExecutorService waiting = Executors.newFixedThreadPool(inFlight);
        try {
            for (Sample sample : corpus.subList(0, Math.min(20, corpus.size()))) {
                plans.run(PlanRequest.live(sample.name(), sample.json(), Map.of()));
            }
            calls.set(0);
            long start = System.nanoTime();
            long cpu = cpuNanos();
            List<Future<PlanResponse>> results = new ArrayList<>();
            for (Sample sample : corpus) {
                results.add(waiting.submit(() -> plans.run(PlanRequest.live(sample.name(), sample.json(), Map.of()))));
            }
            int failed = 0;
            for (Future<PlanResponse> result : results) {
                failed += result.get().succeeded() ? 0 : 1;
            }
            double took = seconds(System.nanoTime() - start);
            double cpuPerPlan = (cpuNanos() - cpu) / 1e6 / corpus.size();
            System.out.printf(
                    Locale.ROOT,
                    "  Temporal, %d worker%s:        %8.1f plans/s  %9.1f activities/s  (%d failed)"
                            + "  %.1f ms of this process's CPU per plan%n",
                    workerCount,
                    workerCount == 1 ? " " : "s",
                    corpus.size() / took,
                    calls.get() / took,
                    failed,
                    cpuPerPlan);
        } finally {
            waiting.shutdownNow();
            workers.forEach(PlanWorkers::close);
        }
    }

    private static PlanWorkers workers(WorkflowClient client, String queue, Set<String> tools) {
        return PlanWorkers.builder(client)
                .taskQueue(queue)
                .tools(standIns(tools))
                .conditionEvaluator(NO)
                .build();
    }

    private static PlanVm vm(Set<String> tools) {
        PlanVmBuilder builder = PlanVm.builder().tools(standIns(tools)).conditionEvaluator(NO);
        return builder.build();
    }

    private static final ConditionEvaluator NO = (prompt, context, call) -> {
        calls.incrementAndGet();
        return new ConditionResult(false, "stand-in");
    };

    /** Instant tools answering from their params: text, or an object with the keys the plan expects. */
    private static List<Tool> standIns(Set<String> names) {
        List<Tool> tools = new ArrayList<>();
        for (String name : names) {
            tools.add(Tool.of(name, "stand-in", (params, context) -> {
                calls.incrementAndGet();
                if (context.expectedKeys().size() < 2) {
                    return TextNode.valueOf(name + "("
                            + params.path("n").asText(params.toString().length() + "") + ")");
                }
                ObjectNode object = JsonNodeFactory.instance.objectNode();
                context.expectedKeys().forEach(key -> object.put(key, key + " from seq_no " + context.seqNo()));
                return object;
            }));
        }
        return tools;
    }

    /** A corpus plan with the tools it calls. */
    private record Sample(String name, String json, Plan plan, Set<String> tools) {}

    /** {@code count} plans: the corpus plans that succeed with stand-in tools, repeated as needed. */
    private static List<Sample> corpus(int count) {
        List<Sample> runnable = new ArrayList<>();
        for (Corpus.Entry entry : Corpus.load()) {
            LoadResult loaded = new dev.planvm.instructions.PlanLoader().load(entry.json(), entry.name());
            if (!loaded.valid()) {
                continue;
            }
            Set<String> tools = new TreeSet<>();
            loaded.plan().instructions().forEach(i -> {
                if (i instanceof Calling calling) {
                    tools.add(calling.tool());
                }
            });
            PlanVm vm = vm(tools);
            if (vm.run(vm.loader().load(entry.json(), entry.name()).planOrThrow(), Map.of())
                    .succeeded()) {
                runnable.add(new Sample(entry.name(), entry.json(), loaded.plan(), tools));
            }
            if (runnable.size() == 100) {
                break;
            }
        }
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            samples.add(runnable.get(i % runnable.size()));
        }
        return samples;
    }

    /** CPU time of this whole process (every thread), in nanoseconds. */
    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
