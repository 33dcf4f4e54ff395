package dev.planvm.vm.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Builds the trace document of one run (DESIGN §6) from run events, an ordinary
 * {@link RunListener}; {@link #document()} is complete once the run has finished:
 * <pre>{@code
 * {"format": "planvm-trace/1", "mode": "live" | "replay" | "record" | "dry-run",
 *  "plan": {"source": ..., "digest": ...}, "inputs": {...}, "clock": {"now": ..., "tz": ...},
 *  "started": ..., "finished": ..., "status": "succeeded" | "completed_with_failures" | "failed" | "waiting"
 *  | "interrupted", "result": ..., "error": {...} | null,
 *  "step_count": N, "early_calls": {"started", "used", "mismatched"},
 *  "steps": [{"seq_no", "line", "type", "start_ms", "duration_ms", "inputs", "writes", "jump": {"to", "explanation"}, "error",
 *             "handled": "value" | "jump" | "keep_going"}],
 *  "failed_steps": [{"seq_no", "type", "tool", "kind", "message"}],
 *  "calls": [{"seq_no", "kind": "tool" | "condition", "tool", "start_ms", "duration_ms", "outcome": "answered" | "failed",
 *             "error", "attempts": [...], "child_run_id", "waited_ms"}],
 *  "limits": [{"tool", "at_ms", "limit", "cause"}],
 *  "pending": {"seq_no", "type", "tool", "params"}}
 * }</pre>
 * {@code clock} is the run's clock, which its date/time helpers read (a replay or a resume with the same
 * clock computes the same dates). {@code line} (in the steps and the error) is the source line of the
 * instruction when the plan was compiled from a dialect (YAML, JavaScript); JSON plans have none.
 * {@code status} is also {@code waiting} (a call needs a reviewer's approval: {@code pending} names it)
 * or {@code interrupted} (stopped at a commit point; a resume continues it). {@code calls} lists every
 * call through the chain in the order they started, with its own timing (calls started ahead of their
 * turn overlap the steps before them); a call still running when the run ended is left out, and past
 * {@link #MAX_CALLS} calls are counted in {@code calls_omitted} instead of listed. A call of a plan tool
 * in a stored run names the stored child run it started in {@code child_run_id}. A call that waited for a
 * slot of its tool's concurrency limit has {@code waited_ms} (the wait is part of its {@code duration_ms}).
 * {@code limits} lists each tool's concurrency limit over time, as events: the limit the run's first call of
 * the tool found ({@code "cause": "start"}), then each change a call of the run caused ({@code overloaded},
 * {@code timeout}, {@code latency}, {@code growth}), at most {@link #MAX_LIMIT_EVENTS} (absent when the run
 * called no limited tool).
 * Steps appear in execution order, one entry per executed step (a loop body appears once per pass);
 * a step's {@code start_ms} counts from the run's {@code started}. In a dry run, steps whose tool
 * output or condition answer is a placeholder have {@code "placeholder": true} in their inputs.
 * A step whose call was retried has {@code "attempts"} in its inputs: its failed attempts, in
 * order, as {@code {"attempt", "error", "duration_ms", "waited_ms"}} ({@code waited_ms}: the wait
 * before the next attempt, absent on a last attempt that failed too); the successful attempt is
 * not listed. A step whose calls spent LLM tokens has {@code "tokens": {"prompt", "completion"}} in its
 * inputs, and the document has their sum as {@code tokens} (absent when no step spent any).
 * A step that failed and let the run go on has both {@code error} and {@code handled}: its {@code on_error}
 * bound a value or jumped, or the run keeps going ({@code keep_going}); a run that keeps going lists those
 * steps in {@code failed_steps} (absent when none failed). {@code early_calls} is absent in a sequential run. Secrets are redacted. A run that
 * ran out of memory (or stack) keeps no steps: they are dropped first, to free what they held.
 *
 * <p>A value larger or deeper than one variable may be (an input, a tool param or output, a
 * write, the result) is replaced by a marker, {@code {"truncated": "text of 6,000,000 characters",
 * "size": 6000000}}, so the document can always be written; the run's own values are untouched.
 */
public final class TraceRecorder implements RunListener {

    public static final String FORMAT = "planvm-trace/1";

    private final JsonNodeFactory json = JsonNodeFactory.instance;
    private final ObjectNode document = json.objectNode();
    private final ArrayNode steps = json.arrayNode();
    private final String mode;
    private final Redactor redactor;
    /** The most calls a trace lists (a run's calls are bounded by its steps times their attempts). */
    public static final int MAX_CALLS = 10_000;

    private final TraceValues values;
    private final Supplier<Instant> clock;
    private final RunClock runClock;
    private volatile Plan plan;
    private volatile JsonNode finished;
    /** When the run started (calls are timed from here, like steps). */
    private volatile long startNanos = System.nanoTime();
    /** Calls in the order they started; entries are filled in when they end (any thread). */
    private final List<ObjectNode> calls = new ArrayList<>();
    /** Calls past {@link #MAX_CALLS}, counted but not listed. */
    private int callsOmitted;

    private final Map<Call, ObjectNode> running = new IdentityHashMap<>();
    /** The most limit events a trace lists. */
    public static final int MAX_LIMIT_EVENTS = 1_000;
    /** Each tool's limit as the run last saw it (a new value makes an event). */
    private final Map<String, Integer> limitsSeen = new java.util.HashMap<>();

    private final ArrayNode limitEvents = json.arrayNode();
    private final Map<Call, List<FailedAttempt>> attempts = new IdentityHashMap<>();
    private TokenCount tokens = TokenCount.ZERO;

    /** A recorder whose values are bounded by {@link RunLimits#DEFAULT}. */
    public TraceRecorder(String mode, Redactor redactor) {
        this(mode, redactor, RunLimits.DEFAULT);
    }

    /**
     * @param mode     how the run calls tools: {@code live}, {@code replay}, {@code record} or {@code dry-run}
     * @param redactor keeps secrets out of the document
     * @param limits   the run's limits: a value larger or deeper than one variable may be is truncated
     */
    public TraceRecorder(String mode, Redactor redactor, RunLimits limits) {
        this(mode, redactor, limits, Instant::now, null);
    }

    /**
     * @param clock    where {@code started} and {@code finished} are read (a workflow's deterministic clock)
     * @param runClock the run's clock, written as the document's {@code clock}, or {@code null} to write none
     */
    public TraceRecorder(String mode, Redactor redactor, RunLimits limits, Supplier<Instant> clock, RunClock runClock) {
        this.mode = mode;
        this.redactor = redactor;
        this.values = new TraceValues(limits);
        this.clock = clock;
        this.runClock = runClock;
    }

    @Override
    public void runStarted(Plan plan, Map<String, JsonNode> inputs) {
        startNanos = System.nanoTime();
        document.put("format", FORMAT);
        document.put("mode", mode);
        document.putObject("plan").put("source", plan.source()).put("digest", plan.digest());
        ObjectNode given = document.putObject("inputs");
        inputs.forEach((name, value) -> given.set(name, values.bound(value)));
        if (runClock != null) {
            document.set("clock", runClock.toJson());
        }
        document.put("started", clock.get().toString());
        this.plan = plan;
    }

    @Override
    public synchronized void callStarted(Call call) {
        ObjectNode entry = json.objectNode();
        entry.put("seq_no", call.context().seqNo());
        if (call instanceof Call.ToolCall tool) {
            entry.put("kind", "tool").put("tool", tool.tool());
        } else {
            entry.put("kind", "condition");
        }
        entry.put("start_ms", millis(System.nanoTime() - startNanos));
        running.put(call, entry);
    }

    /** The running call of step {@code seqNo} to plan tool {@code tool} names its child run: {@code "child_run_id"}. */
    @Override
    public synchronized void childStarted(int seqNo, String tool, String childRunId) {
        if (childRunId == null) {
            return;
        }
        for (ObjectNode entry : running.values()) {
            if (entry.path("seq_no").asInt() == seqNo
                    && tool.equals(entry.path("tool").asText())
                    && !entry.has("child_run_id")) {
                entry.put("child_run_id", childRunId);
                return;
            }
        }
    }

    @Override
    public synchronized void slotTaken(Call call, String limiter, int limit, long waitedNanos) {
        ObjectNode entry = running.get(call);
        if (entry != null && waitedNanos > 0) {
            entry.put("waited_ms", millis(waitedNanos) + entry.path("waited_ms").asDouble(0));
        }
        if (!limitsSeen.containsKey(limiter)) {
            limitEvent(limiter, limit, "start");
        }
    }

    @Override
    public synchronized void limitChanged(Call call, String limiter, int limit, String cause) {
        limitEvent(limiter, limit, cause);
    }

    private void limitEvent(String limiter, int limit, String cause) {
        Integer before = limitsSeen.put(limiter, limit);
        if ((before == null || before != limit) && finished == null && limitEvents.size() < MAX_LIMIT_EVENTS) {
            limitEvents
                    .addObject()
                    .put("tool", limiter)
                    .put("at_ms", millis(System.nanoTime() - startNanos))
                    .put("limit", limit)
                    .put("cause", cause);
        }
    }

    @Override
    public synchronized void attemptFailed(Call call, FailedAttempt attempt) {
        attempts.computeIfAbsent(call, c -> new ArrayList<>()).add(attempt);
    }

    @Override
    public synchronized void callFinished(Call call, JsonNode output, long durationNanos) {
        ended(call, durationNanos, null);
    }

    @Override
    public synchronized void callFailed(Call call, ToolException failure, long durationNanos) {
        ended(call, durationNanos, failure.getMessage());
    }

    private void ended(Call call, long durationNanos, String error) {
        ObjectNode entry = running.remove(call);
        if (entry == null || finished != null) {
            return;
        }
        entry.put("duration_ms", millis(durationNanos));
        entry.put("outcome", error == null ? "answered" : "failed");
        if (error != null) {
            entry.set("error", values.bound(json.textNode(error)));
        }
        List<FailedAttempt> failed = attempts.remove(call);
        if (failed != null) {
            entry.set("attempts", values.bound(FailedAttempt.toJson(failed)));
        }
        if (calls.size() < MAX_CALLS) {
            calls.add(entry);
        } else {
            callsOmitted++;
        }
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    @Override
    public void stepFinished(StepRecord step) {
        Plan known = plan;
        java.util.OptionalInt line = known == null ? java.util.OptionalInt.empty() : known.sourceLine(step.seqNo());
        steps.add(entry(step, values, line.isPresent() ? line.getAsInt() : null));
        tokens = tokens.plus(TokenCount.fromJson(step.inputs().get("tokens")));
    }

    @Override
    public void runFinished(RunResult result) {
        if (result.error() != null && result.error().cause() instanceof VirtualMachineError) {
            steps.removeAll();
        }
        document.put("finished", clock.get().toString());
        document.put("status", result.status().label());
        document.set("result", values.bound(result.finalAnswer()));
        if (result.handsBack()) {
            document.put("use", true); // seed 001's use: the result goes back to the LLM that wrote the plan
        }
        RunError error = result.error();
        if (error == null) {
            document.putNull("error");
        } else {
            ObjectNode e = document.putObject("error");
            if (error.seqNo() == null) {
                e.putNull("seq_no");
                e.putNull("type");
            } else {
                e.put("seq_no", error.seqNo());
                if (error.line() != null) {
                    e.put("line", error.line());
                }
                e.put("type", error.type());
            }
            e.put("message", error.message());
        }
        document.put("step_count", result.steps());
        if (!result.failedSteps().isEmpty()) {
            ArrayNode failed = document.putArray("failed_steps");
            result.failedSteps().forEach(f -> failed.add(f.toJson()));
        }
        if (result.earlyCalls() != null) {
            RunResult.EarlyCalls early = result.earlyCalls();
            document.putObject("early_calls")
                    .put("started", early.started())
                    .put("used", early.used())
                    .put("mismatched", early.mismatched());
        }
        if (!tokens.isZero()) {
            document.set("tokens", tokens.toJson());
        }
        document.set("steps", steps);
        ArrayNode callList = document.putArray("calls");
        synchronized (this) {
            calls.sort(
                    java.util.Comparator.comparingDouble(c -> c.path("start_ms").asDouble()));
            calls.forEach(callList::add);
            if (callsOmitted > 0) {
                document.put("calls_omitted", callsOmitted);
            }
            if (!limitEvents.isEmpty()) {
                document.set("limits", limitEvents);
            }
        }
        if (result.pending() != null) {
            ObjectNode pending = document.putObject("pending")
                    .put("seq_no", result.pending().seqNo())
                    .put("type", result.pending().type())
                    .put("tool", result.pending().tool());
            if (result.pending().isElement()) {
                pending.put("element", result.pending().element());
            }
            pending.set("params", values.bound(result.pending().params()));
        }
        JsonNode done = redactor.redact(document);
        synchronized (this) {
            finished = done;
        }
    }

    /** The finished document, or {@code null} before the run has finished. */
    public JsonNode document() {
        return finished;
    }

    /**
     * The trace entry of one step (also what the run store keeps per committed step), its values
     * bounded by {@link RunLimits#DEFAULT}.
     */
    public static ObjectNode entry(StepRecord step) {
        return entry(step, null);
    }

    /** {@link #entry(StepRecord)} with the step's source {@code line} (a compiled dialect plan's), or none when {@code null}. */
    public static ObjectNode entry(StepRecord step, Integer line) {
        return entry(step, new TraceValues(RunLimits.DEFAULT), line);
    }

    private static ObjectNode entry(StepRecord step, TraceValues values, Integer line) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        entry.put("seq_no", step.seqNo());
        if (line != null) {
            entry.put("line", line);
        }
        entry.put("type", step.type());
        entry.put("start_ms", step.offsetNanos() / 1_000_000.0);
        entry.put("duration_ms", step.durationNanos() / 1_000_000.0);
        ObjectNode inputs = step.inputs();
        if (inputs.get("params") instanceof ObjectNode params) {
            inputs = values.boundFields(inputs, "params", values.boundFields(params));
        }
        entry.set("inputs", values.boundFields(inputs));
        entry.set("writes", values.boundFields(step.writes()));
        if (step.jumpTo() != null || step.explanation() != null) {
            ObjectNode jump = entry.putObject("jump");
            if (step.jumpTo() == null) {
                jump.putNull("to");
            } else {
                jump.put("to", step.jumpTo());
            }
            jump.put("explanation", step.explanation());
        }
        if (step.error() != null) {
            entry.put("error", step.error());
        }
        if (step.recovered()) {
            entry.put("handled", step.handled());
        }
        return entry;
    }
}
