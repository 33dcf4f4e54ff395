package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Loads, validates and runs one plan file and never throws for anything the plan or its cassette
 * does — running out of memory or stack included: every outcome is a {@link PlanOutcome}, whose
 * diagnostics are the plan's validation diagnostics and the run's {@linkplain PlanVm#warnings warnings}
 * (e.g. calls a replayed cassette does not cover), so a batch or a regression run records the plan and
 * goes on. Thread-safe (the {@link PlanVm} is).
 */
public final class PlanFileRunner {

    private final PlanVm vm;
    private final PlanFileLoader loader;
    private final UnaryOperator<RunClock> clock;
    private final boolean keepGoing;
    /** Stops each run from outside (a plan test's time limit), or {@code null}. */
    private final RunControl control;
    /** Hears each run (where a plan test's run is when its time is up), or {@code null}. */
    private final RunListener listener;

    /** A runner of StackVM JSON files, read by the VM's loader. */
    public PlanFileRunner(PlanVm vm) {
        this(vm, (file, inputs) -> vm.loader().load(file), UnaryOperator.identity(), false, null, null);
    }

    /** A runner whose files {@code loader} reads (e.g. in every dialect). */
    public PlanFileRunner(PlanVm vm, PlanFileLoader loader) {
        this(vm, loader, UnaryOperator.identity(), false, null, null);
    }

    private PlanFileRunner(
            PlanVm vm,
            PlanFileLoader loader,
            UnaryOperator<RunClock> clock,
            boolean keepGoing,
            RunControl control,
            RunListener listener) {
        this.vm = Objects.requireNonNull(vm, "vm");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.keepGoing = keepGoing;
        this.control = control;
        this.listener = listener;
    }

    /**
     * This runner with each run's clock changed by {@code adjust}: it gets the clock the run would
     * have ({@link PlanVm#clockFor}: a replayed cassette's, else the VM's now) and returns the one to
     * use ({@code --now}, {@code --tz}).
     */
    public PlanFileRunner withClock(UnaryOperator<RunClock> adjust) {
        return new PlanFileRunner(vm, loader, adjust, keepGoing, control, listener);
    }

    /**
     * This runner with each run keeping going past a failed step ({@link RunOptions#withKeepGoing}): the
     * outcome lists the steps that failed ({@link PlanOutcome#failedSteps()}).
     */
    public PlanFileRunner withKeepGoing(boolean value) {
        return new PlanFileRunner(vm, loader, clock, value, control, listener);
    }

    /** This runner with each run stopped by {@code stop} and heard by {@code heard} (one plan at a time). */
    PlanFileRunner watched(RunControl stop, RunListener heard) {
        return new PlanFileRunner(vm, loader, clock, keepGoing, stop, heard);
    }

    /** The plan in {@code file}, read as this runner reads it (every located diagnostic when it does not load). */
    public LoadResult load(Path file, Map<String, JsonNode> inputs) {
        return loader.load(file, inputs);
    }

    /** Where the cassette of plan {@code X.json} is: {@code dir/X.cassette.json}. */
    public static Path cassetteFor(Path plan, Path dir) {
        return dir.resolve(baseName(plan) + ".cassette.json");
    }

    /**
     * Why {@code plan} cannot run in a replayed batch that has no cassette {@code cassette} for it
     * ({@code no cassette C, and the plan calls out: seq_no 2 calls tool 'search'; seq_no 4 has a
     * condition_prompt}), or empty when it calls nothing out and may run as it is.
     */
    public static Optional<String> withoutCassette(Plan plan, Path cassette) {
        List<String> calls = new ArrayList<>();
        for (Instruction instruction : plan.instructions()) {
            if (instruction.callsOut()) {
                calls.add("seq_no " + instruction.seqNo()
                        + (instruction instanceof Calling calling
                                ? " calls tool '" + calling.tool() + "'"
                                : " has a condition_prompt"));
            }
        }
        return calls.isEmpty()
                ? Optional.empty()
                : Optional.of("no cassette " + cassette + ", and the plan calls out: " + String.join("; ", calls));
    }

    /** Where the expectation of plan {@code X.json} is: {@code X.expected.json} beside it. */
    public static Path expectationFor(Path plan) {
        return plan.resolveSibling(baseName(plan) + ".expected.json");
    }

    /** {@code X} for {@code .../X.json}, {@code .../X.yaml}, {@code .../X.js}: the name without its extension. */
    public static String baseName(Path plan) {
        String name = plan.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /** Runs {@code plan} live or as a dry run. */
    public PlanOutcome run(Path plan, RunMode mode, Map<String, JsonNode> inputs) {
        return run(plan, () -> mode, inputs);
    }

    /**
     * Runs {@code plan} replaying {@code cassette}; a missing or unreadable cassette makes the
     * outcome {@link RunStatus#REJECTED}.
     *
     * @param timing wait each interaction's recorded duration
     */
    public PlanOutcome replay(Path plan, Path cassette, boolean timing, Map<String, JsonNode> inputs) {
        return replay(plan, cassette, timing, Set.of(), inputs);
    }

    /** {@link #replay(Path, Path, boolean, Map)}, calling the {@code live} tools for real (a partial replay). */
    public PlanOutcome replay(
            Path plan, Path cassette, boolean timing, Set<String> live, Map<String, JsonNode> inputs) {
        return run(
                plan,
                () -> {
                    if (!Files.exists(cassette)) {
                        throw new CassetteException(cassette + ": cassette not found");
                    }
                    return RunMode.replay(Cassette.read(cassette), timing, live);
                },
                inputs);
    }

    /** {@code outcome} with the VM's secrets redacted from its {@code final_answer} (its error already is). */
    public PlanOutcome redacted(PlanOutcome outcome) {
        JsonNode answer = vm.redactor().redact(outcome.finalAnswer());
        return answer == outcome.finalAnswer() ? outcome : outcome.withFinalAnswer(answer);
    }

    /** How a run's mode is found once the plan has loaded: reading a cassette may fail. */
    private interface ModeSource {
        RunMode get();
    }

    private PlanOutcome run(Path plan, ModeSource modeSource, Map<String, JsonNode> inputs) {
        long start = System.nanoTime();
        try {
            return loadAndRun(plan, modeSource, inputs, start);
        } catch (OutOfMemoryError | StackOverflowError exhausted) {
            // a run turns this into a failed result itself; this is loading, or reading the cassette
            String error = exhausted instanceof StackOverflowError
                    ? "the plan overflowed the stack"
                    : "the plan ran out of memory (" + exhausted.getMessage() + ")";
            return outcome(plan, RunStatus.FAILED, null, error, start, 0, List.of(), null);
        }
    }

    private PlanOutcome loadAndRun(Path plan, ModeSource modeSource, Map<String, JsonNode> inputs, long start) {
        LoadResult loaded = loader.load(plan, inputs);
        if (!loaded.valid()) {
            String errors =
                    loaded.errors().stream().map(d -> d.format(plan.toString())).collect(Collectors.joining("; "));
            return outcome(plan, RunStatus.INVALID, null, errors, start, 0, loaded.diagnostics(), null);
        }
        RunMode effective;
        try {
            effective = modeSource.get();
        } catch (CassetteException e) {
            return outcome(plan, RunStatus.REJECTED, null, e.getMessage(), start, 0, loaded.diagnostics(), null);
        }
        List<Diagnostic> diagnostics = new ArrayList<>(loaded.diagnostics());
        diagnostics.addAll(vm.warnings(loaded.plan(), effective));
        try {
            RunOptions options = RunOptions.DEFAULT
                    .withClock(clock.apply(vm.clockFor(RunOptions.DEFAULT, effective)))
                    .withKeepGoing(keepGoing);
            RunRequest.Builder request = RunRequest.builder(loaded.plan())
                    .inputs(inputs)
                    .mode(effective)
                    .options(options);
            if (control != null) {
                request.control(control);
            }
            if (listener != null) {
                request.listener(listener);
            }
            RunResult result = vm.run(request.build());
            return outcome(
                            plan,
                            result.completed() ? result.status() : RunStatus.FAILED,
                            result.finalAnswer(),
                            result.completed() ? null : result.error().describe(),
                            start,
                            result.steps(),
                            diagnostics,
                            result.trace(),
                            result.failedSteps())
                    .withUse(result.handsBack());
        } catch (PlanRejectedException e) {
            return outcome(
                    plan, RunStatus.REJECTED, null, String.join("; ", e.problems()), start, 0, diagnostics, null);
        }
    }

    private static PlanOutcome outcome(
            Path plan,
            RunStatus status,
            JsonNode answer,
            String error,
            long start,
            int steps,
            List<Diagnostic> diagnostics,
            JsonNode trace) {
        return outcome(plan, status, answer, error, start, steps, diagnostics, trace, List.of());
    }

    private static PlanOutcome outcome(
            Path plan,
            RunStatus status,
            JsonNode answer,
            String error,
            long start,
            int steps,
            List<Diagnostic> diagnostics,
            JsonNode trace,
            List<StepError> failedSteps) {
        return new PlanOutcome(
                plan,
                status,
                answer,
                error,
                (System.nanoTime() - start) / 1_000_000,
                steps,
                diagnostics,
                trace,
                failedSteps);
    }
}
