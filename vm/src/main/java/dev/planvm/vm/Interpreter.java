package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.expr.EvaluationException;
import dev.planvm.vm.trace.TraceRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one plan: the program counter loop. A fresh interpreter per run, so runs share
 * nothing but the (immutable) plan, handlers and tools.
 */
final class Interpreter {

    private static final Logger log = LoggerFactory.getLogger(Interpreter.class);

    private final Plan plan;
    private final Map<String, InstructionHandler<?>> handlers;
    private final Calls calls;
    private final List<RunListener> listeners;
    private final int maxSteps;
    private final boolean strict;
    private final VariableStore variables;
    private final Speculator speculator;
    private final Redactor redactor;

    /** @param speculator runs calls ahead of their turn, or {@code null} for a strictly sequential run */
    Interpreter(Plan plan, Map<String, InstructionHandler<?>> handlers, Calls calls, List<RunListener> listeners,
                int maxSteps, boolean strict, Speculator speculator, Redactor redactor, RunLimits limits) {
        this.plan = plan;
        this.handlers = handlers;
        this.calls = calls;
        this.listeners = listeners;
        this.maxSteps = maxSteps;
        this.strict = strict;
        this.speculator = speculator;
        this.redactor = redactor;
        this.variables = new VariableStore(limits);
        calls.speculateWith(speculator);
    }

    RunResult run(Checkpoint checkpoint, TraceRecorder trace) {
        long start = System.nanoTime();
        Map<String, JsonNode> inputs = checkpoint.variables();
        inputs.forEach(variables::restore);
        List<RunListener> all = new ArrayList<>(listeners);
        if (trace != null) {
            all.add(0, trace);
        }
        tell(all, l -> l.runStarted(plan, inputs));
        List<String> warnings = new ArrayList<>();
        Loop loop = new Loop(all, trace != null || !listeners.isEmpty(), start, checkpoint);
        RunError error;
        try {
            error = loop.run();
        } finally {
            if (speculator != null) {
                speculator.close();
            }
        }
        JsonNode finalAnswer = variables.get("final_answer");
        if (error == null && finalAnswer == null) {
            String message = "final_answer was never set, so the result is null";
            if (strict) {
                error = new RunError(null, null, message + " (--strict)", null);
            } else {
                warnings.add(message);
                log.debug(message);
            }
        }
        RunResult result = new RunResult(error == null ? RunStatus.SUCCEEDED : RunStatus.FAILED,
                finalAnswer == null ? NullNode.getInstance() : finalAnswer, variables.snapshot(), error, loop.steps,
                Duration.ofNanos(System.nanoTime() - start), null, warnings, calls.recording());
        if (trace != null) {
            if (speculator != null) {
                Speculator.Stats stats = speculator.stats();
                trace.earlyCalls(stats.started(), stats.used(), stats.mismatched());
            }
            result = new RunResult(result.status(), result.finalAnswer(), result.variables(), result.error(),
                    result.steps(), result.duration(), trace.finish(result), result.warnings(), result.recording());
        }
        RunResult finished = result;
        tell(listeners, l -> l.runFinished(finished));
        return result;
    }

    /** The program counter loop: one instruction per step, in seq_no order unless a handler jumps. */
    private final class Loop {
        private final List<RunListener> all;
        private final boolean recording;
        private final long runStart;
        private final int firstPosition;
        int steps;

        Loop(List<RunListener> all, boolean recording, long runStart, Checkpoint checkpoint) {
            this.all = all;
            this.recording = recording;
            this.runStart = runStart;
            this.firstPosition = checkpoint.position();
            this.steps = checkpoint.steps();
        }

        /** Runs to the end; returns why the run failed, or {@code null}. */
        RunError run() {
            List<Instruction> instructions = plan.instructions();
            int pc = firstPosition;
            while (pc < instructions.size()) {
                Instruction instruction = instructions.get(pc);
                if (steps == maxSteps) {
                    return new RunError(instruction.seqNo(), instruction.type(), "the run exceeded the limit of " + maxSteps
                            + " steps (--max-steps); an unguarded jmp loop is the usual cause", null);
                }
                steps++;
                if (speculator != null) {
                    speculator.beforeStep(pc, variables);
                }
                StepContext step = new StepContext(instruction, variables, calls, recording);
                long stepStart = System.nanoTime();
                if (recording) {
                    tell(all, l -> l.stepStarted(instruction));
                }
                Outcome outcome;
                try {
                    outcome = execute(instruction, step);
                } catch (RuntimeException e) {
                    RunError error = new RunError(instruction.seqNo(), instruction.type(), redactor.redact(describe(e)), e);
                    finishStep(all, recording, step, runStart, stepStart, null, error.message());
                    return error;
                }
                Integer jumpTo = outcome instanceof Outcome.JumpTo j ? j.seqNo() : null;
                finishStep(all, recording, step, runStart, stepStart, jumpTo, null);
                if (outcome instanceof Outcome.Halt) {
                    return null;
                }
                pc = jumpTo != null ? plan.positionOf(jumpTo) : pc + 1;
            }
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private Outcome execute(Instruction instruction, StepContext step) {
        InstructionHandler<Instruction> handler = (InstructionHandler<Instruction>) handlers.get(instruction.type());
        if (handler == null) {
            throw new StepFailure("no handler is registered for instruction type '" + instruction.type() + "'");
        }
        return handler.execute(instruction, step);
    }

    private void finishStep(List<RunListener> all, boolean recording, StepContext step, long runStart, long stepStart,
                            Integer jumpTo, String error) {
        if (!recording) {
            return;
        }
        JsonNodeFactory json = JsonNodeFactory.instance;
        StepRecord record = new StepRecord(step.seqNo(), step.instruction().type(), stepStart - runStart,
                System.nanoTime() - stepStart,
                step.inputs() == null ? json.objectNode() : step.inputs(),
                step.writes() == null ? json.objectNode() : step.writes(),
                jumpTo, step.explanation(), error);
        tell(all, l -> l.stepFinished(record));
    }

    /** The user-facing cause of a step failure. */
    static String describe(RuntimeException e) {
        if (e instanceof EvaluationException || e instanceof StepFailure || e instanceof ToolException) {
            return e.getMessage();
        }
        return "unexpected " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static void tell(List<RunListener> listeners, java.util.function.Consumer<RunListener> event) {
        for (RunListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                log.warn("run listener {} failed and is ignored: {}", listener, e.toString());
            }
        }
    }
}
