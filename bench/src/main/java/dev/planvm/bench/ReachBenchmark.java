package dev.planvm.bench;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.reach.PlanReach;
import dev.planvm.instructions.reach.Reach;
import dev.planvm.instructions.reach.ReachPolicy;
import dev.planvm.instructions.reach.ToolFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reach analysis ({@link PlanReach#analyze}) of a loaded plan, warm, one thread, in µs per plan: {@code hundred} is a
 * generated 100-instruction plan ({@link PlanShapes#reachMix}: retrieval, LLM calls, a for_each, a secret in a
 * header, an LLM-decided jump and a loop per block of ten) checked against a policy of every kind; {@code corpus}
 * takes the valid plans of the StackVM corpus in turn (most have 5–20 instructions), no policy. Loading is not
 * measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ReachBenchmark {

    private static final ToolFacts FACTS = name -> switch (name) {
        case "llm_generate", "vector_search", "retrieve_knowledge_graph", "summarize_each" ->
            new ToolFacts.Fact(name, ToolFacts.Effect.NONE, List.of(), false, null);
        case "http:post_result" ->
            new ToolFacts.Fact(name, ToolFacts.Effect.SIDE_EFFECTS, List.of("hooks.example.com"), false, null);
        default -> ToolFacts.Fact.unknown(name);
    };

    private static final ReachPolicy POLICY = new ReachPolicy(
            Set.of(ReachPolicy.SIDE_EFFECTS),
            Map.of("llm_generate", 20L),
            List.of(new ReachPolicy.DenyFlow("secret:*", "http:*")));

    private Plan hundred;
    private Plan[] corpus;
    private int next;

    @Setup(Level.Trial)
    public void load() {
        PlanLoader loader = new PlanLoader();
        hundred = loader.load(PlanShapes.reachMix(100), "reach-mix-100.json").planOrThrow();
        List<Plan> valid = new ArrayList<>();
        for (Corpus.Entry entry : Corpus.load()) {
            LoadResult loaded = loader.load(entry.json(), entry.name());
            if (loaded.valid()) {
                valid.add(loaded.plan());
            }
        }
        corpus = valid.toArray(Plan[]::new);
        Reach reach = PlanReach.analyze(hundred, FACTS, Set.of("API_KEY"), POLICY);
        System.out.printf(
                "# %d instructions: %d tools, %d violations; corpus: %d valid plans%n",
                hundred.instructions().size(),
                reach.tools().size(),
                reach.violations().size(),
                corpus.length);
    }

    @Benchmark
    public Reach hundred() {
        return PlanReach.analyze(hundred, FACTS, Set.of("API_KEY"), POLICY);
    }

    @Benchmark
    public Reach corpus() {
        int i = next;
        next = (i + 1 == corpus.length) ? 0 : i + 1;
        return PlanReach.analyze(corpus[i], FACTS);
    }
}
