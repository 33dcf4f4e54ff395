package dev.planvm.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.vm.EarlyStarts;
import dev.planvm.vm.RunSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Streamed execution: while an answer streams, each instruction that arrives is handed to the
 * session's {@link EarlyStarts} (which starts the calls that are ready and free to start early), and
 * when each instruction arrived and when each call started is written down for the trace. An answer
 * that turns out invalid, or that a retried attempt replaces, has its early calls discarded. An
 * instruction that fails its own check is listed too, with its problem, and starts nothing.
 */
final class StreamLog implements Planner.Listener {

    private final RunSession session;
    private final long origin;
    private final List<Answer> answers = new ArrayList<>();
    private Map<String, JsonNode> inputs = Map.of();
    private Answer current;

    /** One streamed answer: its early starts and when things arrived (nanoseconds since {@link #origin}). */
    private static final class Answer {
        final EarlyStarts starts;
        final long started;
        final ArrayNode arrivals = JsonNodeFactory.instance.arrayNode();
        long ended;
        Boolean valid;

        Answer(EarlyStarts starts, long started) {
            this.starts = starts;
            this.started = started;
        }
    }

    /** @param origin the {@link System#nanoTime()} times in the trace count from */
    public StreamLog(RunSession session, long origin) {
        this.session = session;
        this.origin = origin;
    }

    /** The variables the next answer's plan will run with (its early calls are computed over them). */
    public synchronized void runsWith(Map<String, JsonNode> variables) {
        this.inputs = Map.copyOf(variables);
    }

    @Override
    public synchronized void answerStarted() {
        if (current != null && current.valid == null) {
            current.starts.discard(); // a retried attempt starts over
            current.valid = false;
            current.ended = System.nanoTime();
        }
        current = new Answer(session.startEarly(inputs), System.nanoTime());
        answers.add(current);
    }

    @Override
    public synchronized void instruction(Instruction instruction) {
        if (current == null) {
            return;
        }
        current.arrivals
                .addObject()
                .put("seq_no", instruction.seqNo())
                .put("type", instruction.type())
                .put("arrived_ms", ms(System.nanoTime()));
        current.starts.arrived(instruction);
    }

    /** An instruction that fails its own check: listed with its problem, and nothing of it starts. */
    @Override
    public synchronized void rejected(JsonNode instruction, Diagnostic problem) {
        if (current == null) {
            return;
        }
        ObjectNode arrival = current.arrivals.addObject();
        JsonNode seqNo = instruction.path("seq_no");
        if (seqNo.canConvertToInt()) {
            arrival.put("seq_no", seqNo.asInt());
        }
        if (instruction.path("type").isTextual()) {
            arrival.put("type", cut(instruction.path("type").asText()));
        }
        arrival.put("arrived_ms", ms(System.nanoTime()))
                .put("pointer", problem.pointer())
                .put("problem", problem.message());
    }

    @Override
    public synchronized void answerEnded(boolean valid) {
        if (current == null) {
            return;
        }
        current.ended = System.nanoTime();
        current.valid = valid;
        if (valid) {
            current.starts.finish();
        } else {
            current.starts.discard();
        }
    }

    /** Whether any answer streamed. */
    public synchronized boolean streamed() {
        return !answers.isEmpty();
    }

    /**
     * The trace of the streamed answers: for each, when it started and ended, when each instruction
     * arrived, and each call started early (when it started and answered).
     */
    public synchronized ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        ArrayNode list = json.putArray("answers");
        int started = 0;
        for (Answer answer : answers) {
            ObjectNode entry = list.addObject();
            entry.put("started_ms", ms(answer.started));
            if (answer.ended != 0) {
                entry.put("ended_ms", ms(answer.ended));
            }
            entry.put("valid", Boolean.TRUE.equals(answer.valid));
            entry.set("instructions", answer.arrivals.deepCopy());
            ArrayNode calls = entry.putArray("early_calls");
            for (EarlyStarts.EarlyCall call : answer.starts.calls()) {
                ObjectNode c = calls.addObject()
                        .put("seq_no", call.seqNo())
                        .put("tool", call.tool())
                        .put("started_ms", ms(call.startedNanos()));
                if (call.answeredNanos() != 0) {
                    c.put("answered_ms", ms(call.answeredNanos()));
                }
                c.put("failed", call.failed());
                started++;
            }
        }
        ObjectNode early = json.putObject("early_calls");
        early.put("started", started);
        early.put("used", session.earlyAnswersUsed());
        return json;
    }

    /** A type as the LLM wrote it, at most 100 characters (an answer is untrusted). */
    private static String cut(String type) {
        return type.length() <= 100 ? type : type.substring(0, 100) + "…";
    }

    private double ms(long nanos) {
        return Math.round((nanos - origin) / 10_000.0) / 100.0;
    }
}
