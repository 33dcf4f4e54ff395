package dev.planvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.agent.Agent;
import dev.planvm.agent.AgentResult;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.llm.PlannerTool;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Streamed execution against plan-then-run, on corpus plans streamed at an LLM's pace.
 *
 * <p>For each corpus-shaped plan (valid, the four instruction types, calls of vector_search,
 * retrieve_knowledge_graph and llm_generate only, no jmp), the planner is a stand-in
 * {@code planvm:planner} tool that streams the plan's JSON in tokens of 4 characters at
 * {@code --tokens-per-second} (default 75), through planvm's call chain like the real one; the tools
 * are stand-ins with latencies ({@code --vector-ms}, {@code --graph-ms}, {@code --llm-ms}; default
 * vector_search 400 ms, retrieve_knowledge_graph 600 ms, llm_generate 1,500 ms, as CriticalPathBench). Each plan is asked twice through
 * {@link Agent}: streamed ({@code --stream}: calls start as the plan arrives) and plan-then-run (the
 * whole answer first). It reports, per plan kind, the time to the first tool call and the time to the
 * answer of both, and the speed-up (plan-then-run / streamed). A plan "has independent retrieval
 * calls" when two or more of its retrievals read nothing another call writes.
 *
 * <p>{@code --scale S} (default 10) divides every latency and the token interval by S to keep the run
 * short; the figures printed are multiplied back by S (so fixed costs are magnified S times: the
 * figures are slightly pessimistic for both modes). {@code --plans N} (default 24); {@code --repeat N}
 * (default 3): each figure is the median of N runs. The bound printed beside each plan is the shortest
 * time to answer any streamed execution could reach (see {@link #bound}).
 */
public final class StreamingBench {

    private static final Set<String> TOOLS = Set.of("vector_search", "retrieve_knowledge_graph", "llm_generate");
    private static final Set<String> RETRIEVALS = Set.of("vector_search", "retrieve_knowledge_graph");

    private final double scale;
    private final double tokensPerSecond;
    private final Map<String, Long> latencies;
    private final int repeat;

    private StreamingBench(double scale, double tokensPerSecond, Map<String, Long> latencies, int repeat) {
        this.scale = scale;
        this.tokensPerSecond = tokensPerSecond;
        this.latencies = Map.copyOf(latencies);
        this.repeat = repeat;
    }

    /** One plan's figures, in unscaled milliseconds. */
    record Figures(
            String plan,
            boolean independent,
            int instructions,
            int chars,
            double streamMs,
            double firstCallStreamed,
            double answerStreamed,
            double firstCallThenRun,
            double answerThenRun,
            double bound) {
        double speedup() {
            return answerThenRun / answerStreamed;
        }
    }

    public static void main(String[] args) throws Exception {
        int plans = 24;
        int repeat = 3;
        double scale = 10;
        double rate = 75;
        Map<String, Long> latencies = new java.util.HashMap<>(
                Map.of("vector_search", 400L, "retrieve_knowledge_graph", 600L, "llm_generate", 1500L));
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--plans" -> plans = Integer.parseInt(args[i + 1]);
                case "--repeat" -> repeat = Integer.parseInt(args[i + 1]);
                case "--scale" -> scale = Double.parseDouble(args[i + 1]);
                case "--tokens-per-second" -> rate = Double.parseDouble(args[i + 1]);
                case "--vector-ms" -> latencies.put("vector_search", Long.parseLong(args[i + 1]));
                case "--graph-ms" -> latencies.put("retrieve_knowledge_graph", Long.parseLong(args[i + 1]));
                case "--llm-ms" -> latencies.put("llm_generate", Long.parseLong(args[i + 1]));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        new StreamingBench(scale, rate, latencies, repeat).run(plans);
    }

    private void run(int count) throws Exception {
        List<Plan> chosen = choose(count);
        System.out.printf(
                Locale.ROOT,
                "# StreamingBench: %d corpus plans, %.0f tokens/s (4 characters each), latencies %s ms, "
                        + "scale 1/%.0f, median of %d, JDK %s%n",
                chosen.size(),
                tokensPerSecond,
                new java.util.TreeMap<>(latencies),
                scale,
                repeat,
                System.getProperty("java.version"));
        ask(chosen.get(0), true); // warm-up: class loading, JIT
        ask(chosen.get(0), false);
        List<Figures> all = new ArrayList<>();
        for (Plan plan : chosen) {
            Measured streamed = median(plan, true);
            Measured thenRun = median(plan, false);
            String text = answerText(plan);
            Figures figures = new Figures(
                    plan.source(),
                    independent(plan),
                    plan.instructions().size(),
                    text.length(),
                    unscaled(streamMillis(text)),
                    streamed.firstCall,
                    streamed.answer,
                    thenRun.firstCall,
                    thenRun.answer,
                    bound(plan));
            all.add(figures);
            System.out.printf(
                    Locale.ROOT,
                    "%-14s %-11s %3d instr %6d chars  stream %6.0f ms | first call %6.0f vs %6.0f ms | "
                            + "answer %6.0f vs %6.0f ms (bound %6.0f) | x%.2f%n",
                    figures.plan(),
                    figures.independent() ? "independent" : "sequential",
                    figures.instructions(),
                    figures.chars(),
                    figures.streamMs(),
                    figures.firstCallStreamed(),
                    figures.firstCallThenRun(),
                    figures.answerStreamed(),
                    figures.answerThenRun(),
                    figures.bound(),
                    figures.speedup());
        }
        summary(
                "plans with independent retrieval calls",
                all.stream().filter(Figures::independent).toList());
        summary("sequential plans", all.stream().filter(f -> !f.independent()).toList());
        summary("all plans", all);
    }

    private static void summary(String label, List<Figures> figures) {
        if (figures.isEmpty()) {
            return;
        }
        double geo = Math.exp(figures.stream()
                .mapToDouble(f -> Math.log(f.speedup()))
                .average()
                .orElse(0));
        double min = figures.stream().mapToDouble(Figures::speedup).min().orElse(0);
        double bestGeo = Math.exp(figures.stream()
                .mapToDouble(f -> Math.log(f.answerThenRun() / f.bound()))
                .average()
                .orElse(0));
        System.out.printf(
                Locale.ROOT,
                "%s (%d): time to first tool call %,.0f ms streamed vs %,.0f ms plan-then-run (mean); "
                        + "time to answer %,.0f ms vs %,.0f ms (mean; the bound for streaming: %,.0f ms); speed-up geometric mean "
                        + "x%.2f, lowest x%.2f (at the bound: x%.2f)%n",
                label,
                figures.size(),
                mean(figures, Figures::firstCallStreamed),
                mean(figures, Figures::firstCallThenRun),
                mean(figures, Figures::answerStreamed),
                mean(figures, Figures::answerThenRun),
                mean(figures, Figures::bound),
                geo,
                min,
                bestGeo);
    }

    private static double mean(List<Figures> figures, java.util.function.ToDoubleFunction<Figures> f) {
        return figures.stream().mapToDouble(f).average().orElse(0);
    }

    /** Times of one agent run, unscaled milliseconds from its start. */
    private record Measured(double firstCall, double answer) {}

    /** The median of {@code repeat} runs (each figure on its own): the machine may be busy with other work. */
    private Measured median(Plan plan, boolean stream) {
        List<Measured> runs = new ArrayList<>();
        for (int i = 0; i < repeat; i++) {
            runs.add(ask(plan, stream));
        }
        double[] first = runs.stream().mapToDouble(Measured::firstCall).sorted().toArray();
        double[] answer = runs.stream().mapToDouble(Measured::answer).sorted().toArray();
        return new Measured(first[first.length / 2], answer[answer.length / 2]);
    }

    private Measured ask(Plan plan, boolean stream) {
        String text = answerText(plan);
        AtomicLong firstCall = new AtomicLong(Long.MAX_VALUE);
        PlanVm vm = vm(text, firstCall);
        long start = System.nanoTime();
        AgentResult result = Agent.builder(vm).format(AnswerFormat.JSON).stream(stream)
                .repairRounds(0)
                .build()
                .ask("bench", Map.of(), RunMode.live());
        long end = System.nanoTime();
        vm.close();
        if (!result.succeeded()) {
            throw new IllegalStateException(plan.source() + ": " + result.error());
        }
        return new Measured(unscaled((firstCall.get() - start) / 1e6), unscaled((end - start) / 1e6));
    }

    /**
     * The shortest time to answer any streamed execution could reach, in unscaled milliseconds: each
     * instruction can start no earlier than its closing brace arrives, nor before the instructions
     * writing what it reads are done; a call then takes its latency. The answer comes when the stream
     * has ended and every instruction is done.
     */
    private double bound(Plan plan) {
        double interval = 1000 / tokensPerSecond;
        JsonNode instructions =
                plan.document().isArray() ? plan.document() : plan.document().path("plan");
        int offset = "{\"plan\":[".length();
        Map<Integer, Double> arrival = new java.util.HashMap<>();
        for (JsonNode instruction : instructions) {
            offset += instruction.toString().length();
            arrival.put(instruction.path("seq_no").asInt(), Math.ceil(offset / 4.0) * interval);
            offset++; // the comma
        }
        double end = Math.ceil((answerText(plan).length()) / 4.0) * interval;
        Map<String, Double> ready = new java.util.HashMap<>();
        double last = end;
        for (Instruction instruction : plan.instructions()) {
            double start = arrival.getOrDefault(instruction.seqNo(), end);
            for (String read : instruction.reads()) {
                start = Math.max(start, ready.getOrDefault(read, 0.0));
            }
            double done = start + (instruction instanceof Calling calling ? latencies.get(calling.tool()) : 0);
            for (String written : instruction.writes()) {
                ready.put(written, done);
            }
            last = Math.max(last, done);
        }
        return last;
    }

    private double unscaled(double millis) {
        return millis * scale;
    }

    /** A VM whose planner streams {@code text} at the token rate, with stand-in tools at their latencies. */
    private PlanVm vm(String text, AtomicLong firstCall) {
        var builder =
                PlanVm.builder().tool(new StreamingPlanner(text, (long) (1000 / tokensPerSecond / scale * 1_000_000)));
        for (String tool : TOOLS) {
            long latency = (long) (latencies.get(tool) / scale);
            builder.tool(Tool.of(tool, "stand-in " + tool, (params, context) -> {
                firstCall.accumulateAndGet(System.nanoTime(), Math::min);
                sleep(latency * 1_000_000);
                return answer(tool, context);
            }));
        }
        long conditionLatency = (long) (800 / scale);
        builder.conditionEvaluator((prompt, context, call) -> {
            sleep(conditionLatency * 1_000_000);
            return new ConditionResult(true, "stand-in");
        });
        return builder.build();
    }

    private static JsonNode answer(String tool, CallContext context) {
        if (context.expectedKeys().size() < 2) {
            return TextNode.valueOf(tool + " answer for seq_no " + context.seqNo());
        }
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        context.expectedKeys().forEach(k -> object.put(k, k + " from seq_no " + context.seqNo()));
        return object;
    }

    /** The stand-in planner: streams its answer in 4-character tokens, one every {@code intervalNanos}. */
    private static final class StreamingPlanner implements Tool {
        private final String text;
        private final long intervalNanos;

        StreamingPlanner(String text, long intervalNanos) {
            this.text = text;
            this.intervalNanos = intervalNanos;
        }

        @Override
        public String name() {
            return PlannerTool.NAME;
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            boolean stream = params.path("stream").asBoolean(false);
            if (stream) {
                context.events().streamStarted();
            }
            long start = System.nanoTime();
            for (int i = 0, token = 1; i < text.length(); i += 4, token++) {
                long due = start + token * intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    sleep(wait);
                }
                if (stream) {
                    context.events().chunk(text.substring(i, Math.min(text.length(), i + 4)));
                }
            }
            return TextNode.valueOf(text);
        }
    }

    private double streamMillis(String text) {
        return Math.ceil(text.length() / 4.0) * 1000 / tokensPerSecond / scale;
    }

    /** The planner's answer: the plan as an LLM writes it in JSON mode. */
    private static String answerText(Plan plan) {
        ObjectNode answer = JsonNodeFactory.instance.objectNode();
        answer.set(
                "plan",
                plan.document().isArray() ? plan.document() : plan.document().path("plan"));
        return answer.toString();
    }

    /**
     * Corpus-shaped plans: valid, the four types, the three tools, no jmp, and a run that succeeds with
     * every tool answering; as many independent as sequential when possible.
     */
    private static List<Plan> choose(int count) {
        PlanLoader loader = new PlanLoader(TOOLS, Set.of());
        List<Plan> independent = new ArrayList<>();
        List<Plan> sequential = new ArrayList<>();
        for (Corpus.Entry entry : Corpus.load()) {
            LoadResult loaded = loader.load(entry.json(), entry.name());
            if (!loaded.valid() || !eligible(loaded.plan()) || StandIns.record(loaded.plan()) == null) {
                continue;
            }
            (independent(loaded.plan()) ? independent : sequential).add(loaded.plan());
        }
        List<Plan> chosen = new ArrayList<>();
        pick(independent, count / 2, chosen);
        pick(sequential, count - count / 2, chosen);
        return chosen;
    }

    /** {@code n} plans spread evenly over {@code from}. */
    private static void pick(List<Plan> from, int n, List<Plan> into) {
        for (int i = 0; i < n && i < from.size(); i++) {
            into.add(from.get((int) ((long) i * from.size() / Math.min(n, from.size()))));
        }
    }

    private static boolean eligible(Plan plan) {
        JsonNode raw =
                plan.document().isArray() ? plan.document() : plan.document().path("plan");
        for (JsonNode instruction : raw) {
            String type = instruction.path("type").asText();
            if (!Set.of("assign", "calling", "reasoning").contains(type)) {
                return false;
            }
        }
        boolean calls = false;
        for (Instruction instruction : plan.instructions()) {
            if (instruction instanceof Calling calling) {
                if (!TOOLS.contains(calling.tool())) {
                    return false;
                }
                calls = true;
            }
        }
        return calls;
    }

    /** Whether two or more retrieval calls read nothing that a call writes (only inputs and assigns). */
    static boolean independent(Plan plan) {
        Set<String> fromCalls = new HashSet<>();
        int free = 0;
        for (Instruction instruction : plan.instructions()) {
            Set<String> reads = instruction.reads();
            boolean dependsOnCall = reads.stream().anyMatch(fromCalls::contains);
            if (instruction instanceof Calling calling) {
                if (RETRIEVALS.contains(calling.tool()) && !dependsOnCall) {
                    free++;
                }
                fromCalls.addAll(calling.writes());
            } else if (instruction instanceof Assign assign && dependsOnCall) {
                fromCalls.addAll(assign.writes());
            }
        }
        return free >= 2;
    }

    private static void sleep(long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
