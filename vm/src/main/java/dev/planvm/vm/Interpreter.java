package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
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
    private final VariableStore variables = new VariableStore();

    Interpreter(Plan plan, Map<String, InstructionHandler<?>> handlers, Calls calls, List<RunListener> listeners,
                int maxSteps, boolean strict) {
        this.plan = plan;
        this.handlers = handlers;
        this.calls = calls;
        this.listeners = listeners;
        this.maxSteps = maxSteps;
        this.strict = strict;
    }

    RunResult run(Map<String, JsonNode> inputs, TraceRecorder trace) {
        long start = System.nanoTime();
        inputs.forEach(variables::set);
        List<RunListener> all = new ArrayList<>(listeners);
        if (trace != null) {
            all.add(0, trace);
        }
        notify(all, l -> l.runStarted(plan, inputs));
        List<Instruction> instructions = plan.instructions();
        List<String> warnings = new ArrayList<>();
        RunError error = null;
        int steps = 0;
        int pc = 0;
        boolean recording = trace != null || !listeners.isEmpty();
        while (pc < instructions.size()) {
            Instruction instruction = instructions.get(pc);
            if (steps == maxSteps) {
                error = new RunError(instruction.seqNo(), instruction.type(), "the run exceeded the limit of " + maxSteps
                        + " steps (--max-steps); an unguarded jmp loop is the usual cause", null);
                break;
            }
            steps++;
            StepContext step = new StepContext(instruction, variables, calls, recording);
            long stepStart = System.nanoTime();
            if (recording) {
                notify(all, l -> l.stepStarted(instruction));
            }
            Outcome outcome;
            try {
                outcome = execute(instruction, step);
            } catch (RuntimeException e) {
                error = new RunError(instruction.seqNo(), instruction.type(), describe(e), e);
                finishStep(all, recording, step, start, stepStart, null, error.message());
                break;
            }
            Integer jumpTo = outcome instanceof Outcome.JumpTo j ? j.seqNo() : null;
            finishStep(all, recording, step, start, stepStart, jumpTo, null);
            if (outcome instanceof Outcome.Halt) {
                break;
            }
            pc = jumpTo != null ? plan.positionOf(jumpTo) : pc + 1;
        }
        JsonNode finalAnswer = variables.get("final_answer");
        if (error == null && finalAnswer == null) {
            String message = "final_answer was never set, so the result is null";
            if (strict) {
                error = new RunError(null, null, message + " (--strict)", null);
            } else {
                warnings.add(message);
                log.warn(message);
            }
        }
        RunResult result = new RunResult(error == null ? RunStatus.SUCCEEDED : RunStatus.FAILED,
                finalAnswer == null ? NullNode.getInstance() : finalAnswer, variables.snapshot(), error, steps,
                Duration.ofNanos(System.nanoTime() - start), null, warnings, calls.recording());
        if (trace != null) {
            result = new RunResult(result.status(), result.finalAnswer(), result.variables(), result.error(),
                    result.steps(), result.duration(), trace.finish(result), result.warnings(), result.recording());
        }
        RunResult finished = result;
        notify(listeners, l -> l.runFinished(finished));
        return result;
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
        notify(all, l -> l.stepFinished(record));
    }

    /** The user-facing cause of a step failure. */
    static String describe(RuntimeException e) {
        if (e instanceof EvaluationException || e instanceof StepFailure || e instanceof ToolException) {
            return e.getMessage();
        }
        return "unexpected " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private static void notify(List<RunListener> listeners, java.util.function.Consumer<RunListener> event) {
        for (RunListener listener : listeners) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                log.warn("run listener {} failed and is ignored: {}", listener, e.toString());
            }
        }
    }
}
