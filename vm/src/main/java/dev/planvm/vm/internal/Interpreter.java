package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.EvaluationException;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepFailure;
import dev.planvm.vm.run.StepRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one plan: the program counter loop. A fresh interpreter per run, so runs share
 * nothing but the (immutable) plan, handlers and tools. Each step commits in program order: its
 * record goes to the journal (which may stop the run) and then to the listeners.
 */
public final class Interpreter {

    private static final Logger log = LoggerFactory.getLogger(Interpreter.class);

    private final RunSetup setup;
    private final Plan plan;
    private final VariableStore variables;
    private int steps;

    public Interpreter(RunSetup setup) {
        this.setup = setup;
        this.plan = setup.plan();
        this.variables = new VariableStore(setup.limits());
    }

    /** Runs from {@code checkpoint} to the end; failures become a failed result, never an exception. */
    public RunResult run(Checkpoint checkpoint) {
        long start = setup.scheduler().nanoTime();
        checkpoint.variables().forEach(variables::restore);
        steps = checkpoint.steps();
        tell(l -> l.runStarted(plan, checkpoint.variables()));
        RunError error;
        try {
            error = loop(checkpoint.position(), start);
        } finally {
            if (setup.speculator() != null) {
                setup.speculator().close();
            }
        }
        List<String> warnings = new ArrayList<>();
        JsonNode finalAnswer = variables.get("final_answer");
        if (error == null && finalAnswer == null) {
            String message = "final_answer was never set, so the result is null";
            if (setup.strict()) {
                error = new RunError(null, null, message + " (--strict)", null);
            } else {
                warnings.add(message);
                log.debug(message);
            }
        }
        RunResult result = new RunResult(error == null ? RunStatus.SUCCEEDED : RunStatus.FAILED,
                finalAnswer == null ? NullNode.getInstance() : finalAnswer, variables.snapshot(), error, steps,
                Duration.ofNanos(setup.scheduler().nanoTime() - start), null, warnings,
                setup.speculator() == null ? null : setup.speculator().stats());
        if (setup.journal() != null) {
            try {
                setup.journal().finish(result);
            } catch (RuntimeException e) {
                result = result.failedWith(new RunError(null, null, setup.redactor().redact(
                        "the run ended but its end could not be recorded: " + e.getMessage()), e));
            }
        }
        RunResult finished = result;
        tell(l -> l.runFinished(finished));
        return result;
    }

    /** One instruction per step, in seq_no order unless a handler jumps; returns why the run failed, or null. */
    private RunError loop(int firstPosition, long runStart) {
        List<Instruction> instructions = plan.instructions();
        int pc = firstPosition;
        while (pc < instructions.size()) {
            Instruction instruction = instructions.get(pc);
            if (steps == setup.maxSteps()) {
                return new RunError(instruction.seqNo(), instruction.type(), "the run exceeded the limit of "
                        + setup.maxSteps() + " steps (--max-steps); an unguarded jmp loop is the usual cause", null);
            }
            steps++;
            if (setup.speculator() != null) {
                setup.speculator().beforeStep(pc, variables);
            }
            Step step = new Step(instruction, variables, this::answer, setup.recording(), setup.placeholders());
            long stepStart = setup.scheduler().nanoTime();
            if (setup.recording()) {
                tell(l -> l.stepStarted(instruction));
            }
            Outcome outcome;
            try {
                outcome = execute(instruction, step);
            } catch (RuntimeException e) {
                RunError error = new RunError(instruction.seqNo(), instruction.type(), setup.redactor().redact(describe(e)), e);
                StepRecord failed = step.record(stepStart - runStart, setup.scheduler().nanoTime() - stepStart, null,
                        error.message());
                tell(l -> l.stepFinished(failed));
                return error;
            }
            int next = outcome instanceof Outcome.JumpTo jump ? plan.positionOf(jump.seqNo())
                    : outcome instanceof Outcome.Halt ? instructions.size() : pc + 1;
            if (setup.recording()) {
                StepRecord record = step.record(stepStart - runStart, setup.scheduler().nanoTime() - stepStart, outcome, null);
                RunError notRecorded = commit(record, next);
                if (notRecorded != null) {
                    return notRecorded;
                }
                tell(l -> l.stepFinished(record));
            }
            pc = next;
        }
        return null;
    }

    /** Makes the step durable; when the journal cannot, the run fails at this step (it is not committed). */
    private RunError commit(StepRecord record, int next) {
        if (setup.journal() == null) {
            return null;
        }
        try {
            setup.journal().commit(record, next);
            return null;
        } catch (RuntimeException e) {
            return new RunError(record.seqNo(), record.type(), setup.redactor().redact(
                    "the step could not be recorded, so the run stops here: " + e.getMessage()), e);
        }
    }

    private JsonNode answer(int seqNo, Call call, Consumer<FailedAttempt> failedAttempts) {
        return setup.speculator() == null ? setup.chain().execute(call, failedAttempts)
                : setup.speculator().atTurn(seqNo, call, failedAttempts);
    }

    @SuppressWarnings("unchecked")
    private Outcome execute(Instruction instruction, Step step) {
        InstructionHandler<Instruction> handler = (InstructionHandler<Instruction>) setup.handlers().get(instruction.type());
        if (handler == null) {
            throw new StepFailure("no handler is registered for instruction type '" + instruction.type() + "'");
        }
        return handler.execute(instruction, step);
    }

    /** The user-facing cause of a step failure. */
    static String describe(RuntimeException e) {
        if (e instanceof EvaluationException || e instanceof StepFailure || e instanceof ToolException) {
            return e.getMessage();
        }
        return "unexpected " + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    private void tell(Consumer<RunListener> event) {
        for (RunListener listener : setup.listeners()) {
            try {
                event.accept(listener);
            } catch (RuntimeException e) {
                log.warn("run listener {} failed and is ignored: {}", listener, e.toString());
            }
        }
    }
}
