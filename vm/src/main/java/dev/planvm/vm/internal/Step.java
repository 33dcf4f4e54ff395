package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.expr.Interpolator;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.json.JsonValues;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.StepContext;
import dev.planvm.vm.run.StepContext.Settled;
import dev.planvm.vm.run.StepFailure;
import dev.planvm.vm.run.StepRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/** The {@link StepContext} of one step: what the handler did, ready to become a {@link StepRecord}. */
final class Step implements StepContext {

    /** Answers the calls of a step: at its turn through the chain, or from a call started ahead. */
    @FunctionalInterface
    interface Caller {
        JsonNode call(int seqNo, Call call, Consumer<FailedAttempt> failedAttempts);
    }

    /** Answers the calls of a {@code for_each} step, several at a time; see {@link StepContext#callEach}. */
    @FunctionalInterface
    interface EachCaller {
        List<Settled> callEach(int seqNo, List<Call> calls, Consumer<FailedAttempt> failedAttempts);
    }

    private final Instruction instruction;
    private final VariableStore variables;
    private final Caller caller;
    private final EachCaller eachCaller;
    private final boolean recording;
    private final boolean retaining;
    private final boolean placeholders;
    private final List<Call> calls = new ArrayList<>(1);
    private ObjectNode inputs;
    private ObjectNode writes;
    private String explanation;
    private TokenCount spent = TokenCount.ZERO;
    private long slotWaitNanos;
    private final List<TokenTally.LimitChange> limitChanges = new ArrayList<>(0);

    /**
     * @param recording    whether someone reads the record (a listener, the trace, a journal)
     * @param retaining    whether the run keeps the record (the trace, a recorded cassette): its
     *                     inputs and writes then count against the run's memory budget
     * @param placeholders whether answers are dry-run placeholders (marked in the inputs)
     */
    Step(
            Instruction instruction,
            VariableStore variables,
            Caller caller,
            boolean recording,
            boolean retaining,
            boolean placeholders) {
        this(instruction, variables, caller, null, recording, retaining, placeholders);
    }

    /** @param eachCaller answers the calls of {@link #callEach}, or {@code null} to make them one by one */
    Step(
            Instruction instruction,
            VariableStore variables,
            Caller caller,
            EachCaller eachCaller,
            boolean recording,
            boolean retaining,
            boolean placeholders) {
        this.instruction = instruction;
        this.variables = variables;
        this.caller = caller;
        this.eachCaller = eachCaller;
        this.recording = recording;
        this.retaining = recording && retaining;
        this.placeholders = placeholders;
    }

    @Override
    public Instruction instruction() {
        return instruction;
    }

    @Override
    public Variables variables() {
        return variables;
    }

    @Override
    public RunLimits limits() {
        return variables.limits();
    }

    @Override
    public JsonNode interpolate(ValueTemplate template) {
        return Interpolator.interpolate(template, variables, variables.limits().maxStringLength());
    }

    @Override
    public void set(String name, JsonNode value) {
        variables.set(name, value);
        if (retaining) {
            variables.retain("the write of '" + name + "'", variables.get(name));
        }
        if (recording) {
            if (writes == null) {
                writes = JsonNodeFactory.instance.objectNode();
            }
            writes.set(name, variables.get(name));
        }
    }

    @Override
    public void recordInput(String name, JsonNode value) {
        if (retaining) {
            variables.retain("the input '" + name + "'", value);
        }
        keepInput(name, value);
    }

    private void keepInput(String name, JsonNode value) {
        if (recording) {
            if (inputs == null) {
                inputs = JsonNodeFactory.instance.objectNode();
            }
            inputs.set(name, value);
        }
    }

    @Override
    public void explain(String explanation) {
        this.explanation = explanation;
    }

    @Override
    public JsonNode call(Call call) {
        calls.add(call);
        if (placeholders) {
            recordInput("placeholder", BooleanNode.TRUE);
        }
        List<FailedAttempt> failed = new ArrayList<>();
        TokenTally tokens = new TokenTally(call.context().events());
        JsonNode answer;
        try {
            answer = caller.call(seqNo(), call.withEvents(tokens), failed::add);
        } finally {
            if (!failed.isEmpty()) {
                keepInput("attempts", FailedAttempt.toJson(failed));
            }
            spent = spent.plus(tokens.total());
            if (!spent.isZero()) {
                recordInput("tokens", spent.toJson());
            }
            noteConcurrency(List.of(tokens));
        }
        JsonValues.problem(answer).ifPresent(problem -> {
            throw new StepFailure((call instanceof Call.ToolCall ? "" : "the LLM ") + call.describe()
                    + " answered a value JSON cannot hold: " + problem);
        });
        return answer;
    }

    @Override
    public List<Settled> callEach(List<? extends Call> each) {
        if (eachCaller == null) {
            return StepContext.super.callEach(each);
        }
        if (placeholders && !each.isEmpty()) {
            recordInput("placeholder", BooleanNode.TRUE);
        }
        List<FailedAttempt> failed = Collections.synchronizedList(new ArrayList<>());
        List<TokenTally> tallies = new ArrayList<>(each.size());
        List<Call> tallied = new ArrayList<>(each.size());
        for (Call call : each) {
            calls.add(call);
            TokenTally tokens = new TokenTally();
            tallies.add(tokens);
            tallied.add(call.withEvents(tokens));
        }
        List<Settled> settled;
        try {
            settled = eachCaller.callEach(seqNo(), tallied, failed::add);
        } finally {
            if (!failed.isEmpty()) {
                keepInput("attempts", FailedAttempt.toJson(List.copyOf(failed)));
            }
            for (int i = 0; i < tallies.size(); i++) {
                tallies.get(i).replayTo(each.get(i).context().events());
                spent = spent.plus(tallies.get(i).total());
            }
            if (!spent.isZero()) {
                recordInput("tokens", spent.toJson());
            }
            noteConcurrency(tallies);
        }
        List<Settled> checked = new ArrayList<>(settled.size());
        for (int i = 0; i < settled.size(); i++) {
            Settled one = settled.get(i);
            String problem = one.ok() ? JsonValues.problem(one.answer()).orElse(null) : null;
            checked.add(
                    problem == null
                            ? one
                            : Settled.failed(new StepFailure(
                                    each.get(i).describe() + " answered a value JSON cannot hold: " + problem)));
        }
        return checked;
    }

    /**
     * Keeps what the step's calls waited for slots of their tools' concurrency limits ({@code slot_wait_ms}, when
     * they waited) and the changes of those limits they caused ({@code limits}), in the step's inputs: the trace
     * and {@code planvm show} have each tool's limit over time.
     */
    private void noteConcurrency(List<TokenTally> tallies) {
        boolean changed = false;
        for (TokenTally tally : tallies) {
            slotWaitNanos += tally.waitedNanos();
            List<TokenTally.LimitChange> more = tally.changes();
            changed |= !more.isEmpty();
            limitChanges.addAll(more);
        }
        if (slotWaitNanos > 0) {
            keepInput("slot_wait_ms", DoubleNode.valueOf(Math.round(slotWaitNanos / 1_000.0) / 1_000.0));
        }
        if (changed) {
            keepInput("limits", TokenTally.toJson(limitChanges));
        }
    }

    /** The record of this step, which started {@code offsetNanos} after the run and took {@code durationNanos}. */
    StepRecord record(long offsetNanos, long durationNanos, Outcome outcome, String error) {
        return record(offsetNanos, durationNanos, outcome, error, null);
    }

    /** {@link #record(long, long, Outcome, String)} of a step that failed and was {@code handled} (the run goes on). */
    StepRecord record(long offsetNanos, long durationNanos, Outcome outcome, String error, String handled) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        return new StepRecord(
                seqNo(),
                instruction.type(),
                offsetNanos,
                durationNanos,
                inputs == null ? json.objectNode() : inputs,
                writes == null ? json.objectNode() : writes,
                outcome,
                explanation,
                error,
                calls,
                handled);
    }
}
