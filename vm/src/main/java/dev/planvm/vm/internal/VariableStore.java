package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.instructions.expr.ValueSize;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.json.JsonValues;
import dev.planvm.vm.run.LimitReached;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.StepFailure;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The variables of one run: names to JSON values. A value stays until a step replaces it, so a
 * backward jump can read what an earlier step wrote; only when the run exhausts the heap or the
 * stack ({@link OutOfMemoryError}, {@link StackOverflowError}) does the interpreter {@link #clear}
 * every value at once, and the run then fails with no variables in its result. A value a step sets must fit the
 * {@link RunLimits} and be one JSON can hold (no {@code Infinity}, no lone surrogate), so a stored
 * run resumes to exactly these values. {@link #get} returns {@code null} for an unset variable;
 * the expression evaluator turns that into the error that names it. Not thread-safe: a run owns
 * its store.
 *
 * <p>It also keeps the run's memory budget ({@link RunLimits#maxRunSize()}): the sizes of the
 * live values a step set (a replaced value stops counting; inputs and restored values are the
 * caller's and do not count) plus what the run keeps for its trace or recorded cassette
 * ({@link #retain}). A set or a retain that would pass it fails the step.
 */
public final class VariableStore implements Variables {

    private final Map<String, JsonNode> values = new LinkedHashMap<>();
    private final Map<String, Long> sizes = new HashMap<>();
    private final RunLimits limits;
    private final Optional<RunClock> clock;
    private long live;
    private long retained;

    /** A store with no clock: the date/time helpers fail with a sentence. */
    public VariableStore(RunLimits limits) {
        this(limits, null);
    }

    /** A store whose expressions read {@code clock} (the run's, fixed for the whole run). */
    public VariableStore(RunLimits limits, RunClock clock) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Optional.ofNullable(clock);
    }

    @Override
    public Optional<RunClock> clock() {
        return clock;
    }

    /** The value, or {@code null} when unset. */
    @Override
    public JsonNode get(String name) {
        return values.get(name);
    }

    /**
     * Sets a variable (null is JSON null); a value over the limits, one JSON cannot hold, or one
     * that would take the run over its budget is a {@code StepFailure} and sets nothing.
     */
    public void set(String name, JsonNode value) {
        JsonNode json = value == null ? NullNode.getInstance() : value;
        long size = limits.checkVariable(name, json);
        JsonValues.problem(json).ifPresent(problem -> {
            throw new StepFailure("the value for '" + name + "' cannot be kept: " + problem);
        });
        long total = live - sizes.getOrDefault(name, 0L) + size;
        if (total + retained > limits.maxRunSize()) {
            throw overBudget("setting '" + name + "'", total);
        }
        values.put(name, json);
        sizes.put(name, size);
        live = total;
    }

    /** Sets a variable the caller supplied (a run's inputs, a checkpoint's variables) without checking the limits. */
    public void restore(String name, JsonNode value) {
        values.put(name, value == null ? NullNode.getInstance() : value);
        Long replaced = sizes.remove(name);
        live -= replaced == null ? 0 : replaced;
    }

    /**
     * Counts {@code value}, which the run keeps beyond its variables (a step's input or write in
     * the trace), against the budget; {@code what} names it in the failure.
     *
     * @throws StepFailure when the run would hold more than {@link RunLimits#maxRunSize()}
     */
    public void retain(String what, JsonNode value) {
        long room = limits.maxRunSize() - live - retained;
        long size = value.isTextual()
                ? value.textValue().length()
                : !value.isContainerNode()
                        ? 1
                        : ValueSize.of(value, Math.max(0, room), Integer.MAX_VALUE)
                                .size();
        if (size > room) {
            throw overBudget("keeping " + what + " for the trace", live);
        }
        retained += size;
    }

    /**
     * The size of {@code value} as the budget counts it, measured no further than the budget's room: an answer
     * larger than the whole budget is not walked to its end.
     */
    public long sizeOf(JsonNode value) {
        if (value.isTextual()) {
            return value.textValue().length();
        }
        if (!value.isContainerNode()) {
            return 1;
        }
        return ValueSize.of(value, limits.maxRunSize(), Integer.MAX_VALUE).size();
    }

    /**
     * Fails the step when the run could not also hold {@code held} (what a step holds before it sets anything:
     * the answers of a map, as they arrive) beside its variables and trace; {@code what} names it. The message
     * names no count of what arrived (elements arrive in any order in a concurrent run): only the limit and
     * what the run held before the step, so a concurrent run and its sequential twin fail alike.
     *
     * @throws LimitReached when the run would hold more than {@link RunLimits#maxRunSize()}
     */
    public void checkHeld(String what, long held) {
        if (live + retained + held > limits.maxRunSize()) {
            throw new LimitReached("holding " + what + " would take the run past its limit of "
                    + RunLimits.describeSize(limits.maxRunSize()) + " (--max-run-memory) beside its variables ("
                    + count(live) + (retained == 0 ? "" : ") and its trace (" + count(retained))
                    + "; characters of text and keys, plus one per other value)");
        }
    }

    /** Drops every value (the run exhausted the heap or the stack: what it held must be freed before anything else). */
    void clear() {
        values.clear();
        sizes.clear();
        live = 0;
        retained = 0;
    }

    public RunLimits limits() {
        return limits;
    }

    /** A read-only copy, in the order variables were first set. */
    public Map<String, JsonNode> snapshot() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    private LimitReached overBudget(String doing, long variables) {
        return new LimitReached(
                doing + " would take the run past its limit of " + RunLimits.describeSize(limits.maxRunSize())
                        + " (--max-run-memory): its variables would hold " + count(variables)
                        + (retained == 0 ? "" : " and its trace " + count(retained))
                        + " (characters of text and keys, plus one per other value)");
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
