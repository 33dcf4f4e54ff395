package dev.planvm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The interpreter, warm, no I/O, on the three plan shapes of the Foundation 2 issue: an
 * {@code assign} chain where each value references the previous one, a {@code calling} chain with
 * an instant in-memory tool, and an {@code assign}/{@code jmp} alternation. Each method runs one
 * whole plan and declares its instruction count as operations, so the score is <b>µs per executed
 * step</b>. The {@code …Long} variants run the same shape five times longer: equal scores show the
 * cost per step does not grow with plan length. {@code tracing} toggles the trace document that
 * runs build by default.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class InterpreterBenchmark {

    @Param({"false", "true"})
    public boolean tracing;

    private PlanVm vm;
    private Plan assignChain;
    private Plan assignChainLong;
    private Plan callingChain;
    private Plan callingChainLong;
    private Plan assignJmp;
    private Plan assignJmpLong;
    private RunMode replayCallingChain;

    @Setup
    public void setUp() {
        vm = PlanVm.builder()
                .tool(Tool.of("echo", "Returns params.text.", (params, ctx) -> params.get("text")))
                .maxSteps(10_000)
                .tracing(tracing)
                .build();
        assignChain = load(PlanShapes.assignChain(1000), 1000);
        assignChainLong = load(PlanShapes.assignChain(5000), 5000);
        callingChain = load(PlanShapes.callingChain(200), 200);
        callingChainLong = load(PlanShapes.callingChain(1000), 1000);
        assignJmp = load(PlanShapes.assignJmpAlternation(500), 500);
        assignJmpLong = load(PlanShapes.assignJmpAlternation(2500), 2500);
        RunMode.Record record = RunMode.record();
        vm.run(callingChain, Map.of(), record);
        replayCallingChain = RunMode.replay(record.recording().cassette(), false);
        RunResult replayed = vm.run(callingChain, Map.of(), replayCallingChain);
        if (!replayed.succeeded() || replayed.steps() != 200) {
            throw new IllegalStateException("replayed calling chain failed: " + replayed.error());
        }
    }

    private Plan load(String json, int steps) {
        Plan plan = vm.loader().load(json, "bench").planOrThrow();
        RunResult check = vm.run(plan, Map.of());
        if (!check.succeeded() || check.steps() != steps) {
            throw new IllegalStateException("bench plan did not run " + steps + " steps: " + check.error());
        }
        return plan;
    }

    private JsonNode run(Plan plan) {
        return vm.run(plan, Map.of()).finalAnswer();
    }

    @Benchmark
    @OperationsPerInvocation(1000)
    public JsonNode assignChain1000() {
        return run(assignChain);
    }

    @Benchmark
    @OperationsPerInvocation(5000)
    public JsonNode assignChain5000Long() {
        return run(assignChainLong);
    }

    @Benchmark
    @OperationsPerInvocation(200)
    public JsonNode callingChain200() {
        return run(callingChain);
    }

    /** The same 200 calls answered from a cassette: the difference to callingChain200 is the replay cost per call. */
    @Benchmark
    @OperationsPerInvocation(200)
    public JsonNode callingChain200Replay() {
        return vm.run(callingChain, Map.of(), replayCallingChain).finalAnswer();
    }

    @Benchmark
    @OperationsPerInvocation(1000)
    public JsonNode callingChain1000Long() {
        return run(callingChainLong);
    }

    @Benchmark
    @OperationsPerInvocation(500)
    public JsonNode assignJmp500() {
        return run(assignJmp);
    }

    @Benchmark
    @OperationsPerInvocation(2500)
    public JsonNode assignJmp2500Long() {
        return run(assignJmpLong);
    }
}
