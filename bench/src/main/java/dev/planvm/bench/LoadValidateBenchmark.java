package dev.planvm.bench;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Load + validate throughput over the StackVM plan corpus: JSON parse, per-instruction schema check,
 * typing and whole-plan analysis ({@link PlanLoader#load(String, String)}), for valid and invalid
 * plans alike. The corpus is read into memory in setup, so file I/O is not measured. Each invocation
 * loads one plan, cycling through all of them in file order, so the score is plans per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class LoadValidateBenchmark {

    private final PlanLoader loader = new PlanLoader();
    private String[] names;
    private String[] plans;
    private int next;

    @Setup(Level.Trial)
    public void readCorpus() {
        List<Corpus.Entry> entries = Corpus.load();
        names = entries.stream().map(Corpus.Entry::name).toArray(String[]::new);
        plans = entries.stream().map(Corpus.Entry::json).toArray(String[]::new);
        next = 0;
        int valid = 0;
        for (int i = 0; i < plans.length; i++) {
            if (loader.load(plans[i], names[i]).valid()) {
                valid++;
            }
        }
        System.out.printf("# Corpus: %s (%d plans, %d valid)%n", Corpus.directory(), plans.length, valid);
    }

    @Benchmark
    public void loadValidate(Blackhole bh) {
        int i = next;
        next = (i + 1 == plans.length) ? 0 : i + 1;
        LoadResult r = loader.load(plans[i], names[i]);
        bh.consume(r.valid());
        bh.consume(r);
    }
}
