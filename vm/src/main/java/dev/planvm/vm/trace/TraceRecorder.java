package dev.planvm.vm.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Redactor;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import java.time.Instant;
import java.util.Map;

/**
 * Builds the trace document of one run (DESIGN §6) from run events, an ordinary
 * {@link RunListener}; {@link #document()} is complete once the run has finished:
 * <pre>{@code
 * {"format": "planvm-trace/1", "mode": "live" | "replay" | "record" | "dry-run",
 *  "plan": {"source": ..., "digest": ...}, "inputs": {...},
 *  "started": ..., "finished": ..., "status": "succeeded" | "failed", "result": ..., "error": {...} | null,
 *  "step_count": N, "early_calls": {"started", "used", "mismatched"},
 *  "steps": [{"seq_no", "type", "start_ms", "duration_ms", "inputs", "writes", "jump": {"to", "explanation"}, "error"}]}
 * }</pre>
 * Steps appear in execution order, one entry per executed step (a loop body appears once per pass);
 * a step's {@code start_ms} counts from the run's {@code started}. In a dry run, steps whose tool
 * output or condition answer is a placeholder have {@code "placeholder": true} in their inputs.
 * A step whose call was retried has {@code "attempts"} in its inputs: its failed attempts, in
 * order, as {@code {"attempt", "error", "duration_ms", "waited_ms"}} ({@code waited_ms}: the wait
 * before the next attempt, absent on a last attempt that failed too); the successful attempt is
 * not listed. {@code early_calls} is absent in a sequential run. Secrets are redacted. A run that
 * ran out of memory (or stack) keeps no steps: they are dropped first, to free what they held.
 */
public final class TraceRecorder implements RunListener {

    public static final String FORMAT = "planvm-trace/1";

    private final JsonNodeFactory json = JsonNodeFactory.instance;
    private final ObjectNode document = json.objectNode();
    private final ArrayNode steps = json.arrayNode();
    private final String mode;
    private final Redactor redactor;
    private JsonNode finished;

    /**
     * @param mode     how the run calls tools: {@code live}, {@code replay}, {@code record} or {@code dry-run}
     * @param redactor keeps secrets out of the document
     */
    public TraceRecorder(String mode, Redactor redactor) {
        this.mode = mode;
        this.redactor = redactor;
    }

    @Override
    public void runStarted(Plan plan, Map<String, JsonNode> inputs) {
        document.put("format", FORMAT);
        document.put("mode", mode);
        document.putObject("plan").put("source", plan.source()).put("digest", plan.digest());
        ObjectNode given = document.putObject("inputs");
        inputs.forEach(given::set);
        document.put("started", Instant.now().toString());
    }

    @Override
    public void stepFinished(StepRecord step) {
        steps.add(entry(step));
    }

    @Override
    public void runFinished(RunResult result) {
        if (result.error() != null && result.error().cause() instanceof VirtualMachineError) {
            steps.removeAll();
        }
        document.put("finished", Instant.now().toString());
        document.put("status", result.status().label());
        document.set("result", result.finalAnswer());
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
                e.put("type", error.type());
            }
            e.put("message", error.message());
        }
        document.put("step_count", result.steps());
        if (result.earlyCalls() != null) {
            RunResult.EarlyCalls early = result.earlyCalls();
            document.putObject("early_calls").put("started", early.started()).put("used", early.used())
                    .put("mismatched", early.mismatched());
        }
        document.set("steps", steps);
        finished = redactor.redact(document);
    }

    /** The finished document, or {@code null} before the run has finished. */
    public JsonNode document() {
        return finished;
    }

    /** The trace entry of one step (also what the run store keeps per committed step). */
    public static ObjectNode entry(StepRecord step) {
        ObjectNode entry = JsonNodeFactory.instance.objectNode();
        entry.put("seq_no", step.seqNo());
        entry.put("type", step.type());
        entry.put("start_ms", step.offsetNanos() / 1_000_000.0);
        entry.put("duration_ms", step.durationNanos() / 1_000_000.0);
        entry.set("inputs", step.inputs());
        entry.set("writes", step.writes());
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
        return entry;
    }
}
