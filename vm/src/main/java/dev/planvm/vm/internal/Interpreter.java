package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.OnError;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.EvaluationException;
import dev.planvm.json.JsonValues;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.approval.ApprovalRequired;
import dev.planvm.tools.approval.InputRequired;
import dev.planvm.tools.approval.SleepRequired;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.vm.internal.handlers.OutputBinding;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.PendingCall;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepContext;
import dev.planvm.vm.run.StepError;
import dev.planvm.vm.run.StepFailure;
import dev.planvm.vm.run.StepRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of one plan: the program counter loop. A fresh interpreter per run, so runs share
 * nothing but the (immutable) plan, handlers and tools. Each step commits in program order: its
 * record goes to the journal (which may stop the run) and then to the listeners.
 *
 * <p>A run ends succeeded, completed_with_failures (it kept going past failed steps to its end), failed, waiting (a call needs a reviewer's approval: the step is not
 * committed and not reported as failed) or interrupted (its {@link RunControl} asked it to stop; checked
 * before each step, so the step in progress commits first).
 *
 * <p>A run that exhausts the heap or the stack ({@link OutOfMemoryError}, {@link StackOverflowError})
 * anywhere — a step, a call, a listener, the journal — fails with a sentence naming the step that
 * was running, after dropping every value it held; the error never escapes {@link #run}.
 */
public final class Interpreter {

    private static final Logger log = LoggerFactory.getLogger(Interpreter.class);

    private final RunSetup setup;
    private final Plan plan;
    private final VariableStore variables;
    private int steps;
    /** Steps that failed and let the run go on (it keeps going), in execution order. */
    private final List<StepError> failedSteps = new ArrayList<>();
    /** The instruction being executed, for the message when the run runs out of memory. */
    private Instruction current;

    public Interpreter(RunSetup setup) {
        this.setup = setup;
        this.plan = setup.plan();
        this.variables = new VariableStore(setup.limits(), setup.clock());
    }

    /** Runs from {@code checkpoint} to the end; failures become a failed result, never an exception. */
    public RunResult run(Checkpoint checkpoint) {
        long start = setup.scheduler().nanoTime();
        try {
            return runFrom(checkpoint, start);
        } catch (OutOfMemoryError | StackOverflowError exhausted) {
            return exhausted(exhausted, start);
        }
    }

    private RunResult runFrom(Checkpoint checkpoint, long start) {
        checkpoint.variables().forEach(variables::restore);
        steps = checkpoint.steps();
        setup.tree().restored(steps);
        tell(l -> l.runStarted(plan, checkpoint.variables()));
        Ending ending;
        try {
            ending = loop(checkpoint.position(), start);
        } finally {
            if (setup.speculator() != null) {
                setup.speculator().close();
            }
        }
        RunError error = ending == null ? null : located(ending.error());
        current = null;
        List<String> warnings = new ArrayList<>();
        JsonNode finalAnswer = variables.get(Plan.FINAL_ANSWER);
        if (ending == null && finalAnswer == null) {
            String message = "final_answer was never set, so the result is null";
            if (setup.strict()) {
                error = new RunError(null, null, message + " (--strict)", null);
            } else {
                warnings.add(message);
                log.debug(message);
            }
        }
        RunStatus status = error != null
                ? ending == null ? RunStatus.FAILED : ending.status()
                : failedSteps.isEmpty() ? RunStatus.SUCCEEDED : RunStatus.COMPLETED_WITH_FAILURES;
        RunResult result = new RunResult(
                status,
                finalAnswer == null ? NullNode.getInstance() : finalAnswer,
                variables.snapshot(),
                error,
                steps,
                Duration.ofNanos(setup.scheduler().nanoTime() - start),
                null,
                warnings,
                setup.speculator() == null ? null : setup.speculator().stats(),
                ending == null ? null : ending.pending(),
                failedSteps);
        if (setup.journal() != null) {
            try {
                setup.journal().finish(result);
            } catch (RuntimeException e) {
                result = result.failedWith(unrecordedEnd(result.error(), e));
            }
        }
        RunResult finished = result;
        tell(l -> l.runFinished(finished));
        return result;
    }

    /**
     * The run exhausted the heap or the stack: free what it holds, then fail it with a sentence
     * (recorded in the journal, so a stored run does not stay "running"). Nothing it held is kept:
     * the result has no variables and, when listeners are told, the trace keeps no steps.
     */
    private RunResult exhausted(VirtualMachineError error, long start) {
        variables.clear();
        if (setup.speculator() != null) {
            setup.speculator().close();
        }
        String cause = error instanceof StackOverflowError
                ? "the run overflowed the stack (a value or expression nested too deep for this JVM's -Xss)"
                : "the run ran out of memory (" + (error.getMessage() == null ? "Java heap" : error.getMessage())
                        + ") before any limit stopped it; lower --max-run-memory, or give the JVM more (-Xmx)";
        RunError runError = (current == null
                        ? new RunError(null, null, cause, error)
                        : located(new RunError(current.seqNo(), current.type(), cause, error)))
                .withKind(FailureKind.LIMIT_REACHED);
        RunResult result = new RunResult(
                RunStatus.FAILED,
                NullNode.getInstance(),
                Map.of(),
                runError,
                steps,
                Duration.ofNanos(setup.scheduler().nanoTime() - start),
                null,
                List.of(),
                null);
        try {
            if (setup.journal() != null) {
                setup.journal().finish(result);
            }
            tell(l -> l.runFinished(result));
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError again) {
            log.debug("could not record the end of a run that ran out of memory", again);
        }
        return result;
    }

    /** {@code error} with the source line of its instruction, when the plan knows it. */
    private RunError located(RunError error) {
        if (error == null || error.seqNo() == null || error.line() != null) {
            return error;
        }
        java.util.OptionalInt line = plan.sourceLine(error.seqNo());
        return line.isPresent() ? error.withLine(line.getAsInt()) : error;
    }

    /** How a run ended before its end: failed, waiting or interrupted. */
    private record Ending(RunStatus status, RunError error, PendingCall pending) {
        static Ending failed(RunError error) {
            return new Ending(RunStatus.FAILED, error, null);
        }
    }

    /** One instruction per step, in seq_no order unless a handler jumps; returns how the run ended early, or null. */
    private Ending loop(int firstPosition, long runStart) {
        List<Instruction> instructions = plan.instructions();
        int pc = firstPosition;
        while (pc < instructions.size()) {
            Instruction instruction = instructions.get(pc);
            Ending stopped = stopRequested(instruction);
            if (stopped != null) {
                return stopped;
            }
            if (steps == setup.maxSteps()) {
                return Ending.failed(new RunError(
                        instruction.seqNo(),
                        instruction.type(),
                        "the run exceeded the limit of " + setup.maxSteps()
                                + " steps (--max-steps); an unguarded jmp loop is the usual cause",
                        null,
                        null,
                        FailureKind.LIMIT_REACHED));
            }
            if (!setup.tree().step()) {
                return Ending.failed(new RunError(
                        instruction.seqNo(),
                        instruction.type(),
                        setup.tree().stepLimitMessage(),
                        null,
                        null,
                        FailureKind.LIMIT_REACHED));
            }
            steps++;
            if (setup.speculator() != null) {
                setup.speculator().beforeStep(pc, variables);
            }
            current = instruction;
            Step step = new Step(
                    instruction,
                    variables,
                    this::answer,
                    this::answerEach,
                    setup.recording(),
                    setup.retaining(),
                    setup.placeholders());
            long stepStart = setup.scheduler().nanoTime();
            if (setup.recording()) {
                tell(l -> l.stepStarted(instruction));
            }
            Outcome outcome;
            String handled = null;
            String failure = null;
            try {
                outcome = execute(instruction, step);
            } catch (RuntimeException e) {
                ApprovalRequired approval = approvalRequired(e);
                if (approval != null) {
                    steps--; // not executed: it runs again once the call is approved or denied
                    return waiting(instruction, approval);
                }
                Ending stoppedInside = childStopped(instruction, e);
                if (stoppedInside != null) {
                    steps--; // not committed: a resume runs it again and continues the interrupted child
                    return stoppedInside;
                }
                RunError error = new RunError(
                        instruction.seqNo(),
                        instruction.type(),
                        setup.redactor().redact(describe(e)),
                        e);
                Recovery recovery = recover(instruction, step, e, error);
                if (recovery == null) {
                    StepRecord failed = step.record(
                            stepStart - runStart, setup.scheduler().nanoTime() - stepStart, null, error.message());
                    tell(l -> l.stepFinished(failed));
                    return Ending.failed(error);
                }
                outcome = recovery.outcome();
                handled = recovery.handled();
                failure = error.message();
            }
            int next = outcome instanceof Outcome.JumpTo jump
                    ? plan.positionOf(jump.seqNo())
                    : outcome instanceof Outcome.Halt ? instructions.size() : pc + 1;
            if (setup.recording()) {
                StepRecord record = step.record(
                        stepStart - runStart, setup.scheduler().nanoTime() - stepStart, outcome, failure, handled);
                RunError notRecorded = commit(record, next);
                if (notRecorded != null) {
                    return Ending.failed(notRecorded);
                }
                tell(l -> l.stepFinished(record));
            }
            pc = next;
        }
        return null;
    }

    /** A failed step the run goes on from: what happens next, and how the trace says it was handled. */
    private record Recovery(Outcome outcome, String handled) {}

    /**
     * How the run goes on after {@code instruction} failed with {@code e}, or {@code null} when the failure stops
     * it: a {@code calling}'s {@code on_error} binds its value (or jumps) and sets {@code last_error}; a run that
     * keeps going records the failure and goes on with the next step. Neither ever recovers from a failure that
     * protects the machine ({@link StepError#recoverable}). A failure while binding the value stops the run.
     */
    private Recovery recover(Instruction instruction, Step step, RuntimeException e, RunError error) {
        if (!StepError.recoverable(e)) {
            return null;
        }
        String tool = instruction instanceof Calling calling ? calling.tool() : null;
        StepError failed =
                new StepError(instruction.seqNo(), instruction.type(), tool, StepError.Kind.of(e), error.message());
        if (instruction instanceof Calling calling && calling.onError() != null) {
            try {
                if (calling.onError() instanceof OnError.Value value) {
                    OutputBinding.values(calling.tool(), calling.outputVars(), value.value())
                            .forEach(step::set);
                }
                step.set(OnError.LAST_ERROR, failed.lastError());
            } catch (RuntimeException bindFailure) {
                if (setup.keepGoing() && StepError.recoverable(bindFailure)) {
                    failedSteps.add(failed);
                    return new Recovery(Outcome.next(), "keep_going");
                }
                return null;
            }
            log.debug("seq_no {}: on_error handled: {}", instruction.seqNo(), error.message());
            return calling.onError() instanceof OnError.Jump jump
                    ? new Recovery(Outcome.jumpTo(jump.seqNo()), "jump")
                    : new Recovery(Outcome.next(), "value");
        }
        if (!setup.keepGoing()) {
            return null;
        }
        failedSteps.add(failed);
        log.debug("seq_no {} failed and the run keeps going: {}", instruction.seqNo(), error.message());
        return new Recovery(Outcome.next(), "keep_going");
    }

    /**
     * How the run stops when {@code instruction} failed because a child run it started stopped at this run's
     * stop request ({@link ChildRunStopped}): as the request asked, before the step; {@code null} otherwise.
     */
    private Ending childStopped(Instruction instruction, Throwable e) {
        for (int depth = 0; e != null && depth < 20; depth++, e = e.getCause()) {
            if (e instanceof ChildRunStopped) {
                return stopRequested(instruction);
            }
        }
        return null;
    }

    /** Stops the run before {@code next} when its control asks: cancelled (failed) or interrupted. */
    private Ending stopRequested(Instruction next) {
        RunControl control = setup.control();
        if (control == null || control.requested().isEmpty()) {
            return null;
        }
        RunControl.Stop stop = control.requested().get();
        if (stop.cancel()) {
            return Ending.failed(new RunError(
                    next.seqNo(),
                    next.type(),
                    setup.redactor().redact("the run was cancelled before this step: " + stop.reason()),
                    null,
                    null,
                    FailureKind.CANCELLED));
        }
        return new Ending(
                RunStatus.INTERRUPTED,
                new RunError(
                        next.seqNo(),
                        next.type(),
                        setup.redactor()
                                .redact("the run was interrupted before this step (" + stop.reason()
                                        + "); resume continues it here"),
                        null,
                        null,
                        FailureKind.INTERRUPTED),
                null);
    }

    /** The run waits before {@code instruction}'s call until a reviewer decides about it (or a person answers it). */
    private Ending waiting(Instruction instruction, ApprovalRequired approval) {
        Call.ToolCall call = approval.call();
        if (approval instanceof ChildRunWaiting child) { // the call a child run waits for, at this run's step
            return new Ending(
                    RunStatus.WAITING,
                    new RunError(
                            instruction.seqNo(),
                            instruction.type(),
                            setup.redactor().redact(child.getMessage()),
                            null,
                            null,
                            child.kind()),
                    new PendingCall(
                            instruction.seqNo(),
                            instruction.type(),
                            child.pending().tool(),
                            child.pending().params()));
        }
        PendingCall pending = new PendingCall(
                instruction.seqNo(),
                instruction.type(),
                call.tool(),
                setup.redactor().redact(call.params()),
                call.context().element());
        String element = pending.isElement() ? "for_each element " + pending.element() + ": " : "";
        if (approval instanceof SleepRequired sleep) { // the store keeps its wake time: the cause says it
            return new Ending(
                    RunStatus.WAITING,
                    new RunError(
                            instruction.seqNo(),
                            instruction.type(),
                            sleep.getMessage(),
                            sleep,
                            null,
                            FailureKind.WAITING_FOR_TIMER),
                    pending);
        }
        return new Ending(
                RunStatus.WAITING,
                new RunError(
                        instruction.seqNo(),
                        instruction.type(),
                        setup.redactor()
                                .redact(element
                                        + (approval instanceof InputRequired input
                                                ? "waiting for input: "
                                                        + abbreviate(
                                                                input.request().prompt(), 300)
                                                : "waiting for approval to call tool '" + call.tool() + "' with "
                                                        + abbreviate(
                                                                pending.params().toString(), 300))),
                        null,
                        null,
                        approval instanceof InputRequired
                                ? FailureKind.WAITING_FOR_INPUT
                                : FailureKind.WAITING_FOR_APPROVAL),
                pending);
    }

    private static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "… (" + text.length() + " characters)";
    }

    /** The approval signal {@code e} is or wraps (a custom handler may wrap it), or null. */
    private static ApprovalRequired approvalRequired(Throwable e) {
        for (int depth = 0; e != null && depth < 20; depth++, e = e.getCause()) {
            if (e instanceof ApprovalRequired approval) {
                return approval;
            }
        }
        return null;
    }

    /**
     * The error of a run whose end the journal could not record: the step's own error when the run
     * already failed at a step (the step whose commit failed names the cause), with a note that the
     * end is not recorded either; otherwise the recording failure, with no step.
     */
    private RunError unrecordedEnd(RunError failed, RuntimeException e) {
        if (failed == null) {
            return new RunError(
                    null,
                    null,
                    setup.redactor().redact("the run ended but its end could not be recorded: " + e.getMessage()),
                    e,
                    null,
                    storeKind(e));
        }
        return new RunError(
                failed.seqNo(),
                failed.type(),
                failed.message() + " (nor could the end of the run be recorded)",
                failed.cause(),
                failed.line(),
                failed.kind());
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
            return new RunError(
                    record.seqNo(),
                    record.type(),
                    setup.redactor().redact("the step could not be recorded, so the run stops here: " + e.getMessage()),
                    e,
                    null,
                    storeKind(e));
        }
    }

    /** A journal's failure: the store's own kind (full or failed); anything else it throws is a store failure too. */
    private static FailureKind storeKind(RuntimeException e) {
        FailureKind kind = FailureKind.of(e);
        return kind == FailureKind.STORE_FULL ? kind : FailureKind.STORE_FAILED;
    }

    private JsonNode answer(int seqNo, Call call, Consumer<FailedAttempt> failedAttempts) {
        return setup.speculator() == null
                ? setup.chain().execute(call, failedAttempts)
                : setup.speculator().atTurn(seqNo, call, failedAttempts);
    }

    /**
     * The calls of a for_each step: beside the run while the run tree has slots for them (shared with the
     * calls the run started ahead of their turn and with plan-tool children), one by one in a sequential run.
     * Each answer counts toward the run's memory budget as it arrives, and in a journaled run is committed as
     * it settles (toward the store's limit for the run): the first that passes a limit stops the map and
     * fails the step with the limit's message, before the other answers pile up. The elements a resumed
     * step finds committed (the same call at the same position) are not called again: their committed
     * answers stand, in their place.
     */
    private List<StepContext.Settled> answerEach(int seqNo, List<Call> calls, Consumer<FailedAttempt> failedAttempts) {
        RunJournal journal = setup.journal();
        Map<Integer, JsonNode> committed = journal == null ? Map.of() : journal.settledElements(seqNo, calls);
        List<Call> remaining = new ArrayList<>(calls.size());
        List<Integer> positions = new ArrayList<>(calls.size());
        long[] held = {0};
        for (int i = 0; i < calls.size(); i++) {
            JsonNode kept = committed.get(i);
            if (kept == null) {
                remaining.add(calls.get(i));
                positions.add(i);
            } else {
                held[0] += variables.sizeOf(kept);
            }
        }
        variables.checkHeld("the answers of this for_each", held[0]);
        List<StepContext.Settled> settled = EachCalls.run(
                setup.scheduler(), setup.chain(), setup.slots(), remaining, failedAttempts, (answer, k) -> {
                    held[0] += variables.sizeOf(answer);
                    variables.checkHeld("the answers of this for_each", held[0]);
                    commitElement(journal, seqNo, positions.get(k), calls.get(positions.get(k)), answer);
                });
        List<StepContext.Settled> all = new ArrayList<>(calls.size());
        for (int i = 0, k = 0; i < calls.size(); i++) {
            JsonNode kept = committed.get(i);
            all.add(kept != null ? StepContext.Settled.answered(kept) : settled.get(k++));
        }
        return all;
    }

    /**
     * Commits one answered element of a for_each step. A store that refuses it (full, or past its limit for
     * the run) stops the map: the step fails as a step whose commit failed does, with the store's failure.
     */
    private void commitElement(RunJournal journal, int seqNo, int position, Call call, JsonNode answer) {
        if (journal == null || JsonValues.problem(answer).isPresent()) {
            return;
        }
        try {
            journal.settleElement(seqNo, position, call, answer);
        } catch (RuntimeException e) {
            throw new StepFailure(
                    setup.redactor()
                            .redact("for_each element " + position
                                    + " answered but could not be recorded, so the run stops here: " + e.getMessage()),
                    e);
        }
    }

    @SuppressWarnings("unchecked")
    private Outcome execute(Instruction instruction, Step step) {
        InstructionHandler<Instruction> handler =
                (InstructionHandler<Instruction>) setup.handlers().get(instruction.type());
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
        event.accept(setup.listeners()); // the fan-out guards each listener
    }
}
