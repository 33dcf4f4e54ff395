package dev.planvm.agent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.TokenCount;
import dev.planvm.vm.RunMode;
import java.time.Instant;
import java.util.List;

/**
 * The agent trace document ({@code planvm-agent-trace/1}):
 * <pre>{@code
 * {"format": "planvm-agent-trace/1", "goal": ..., "mode": "live" | "record" | "replay",
 *  "started": ..., "finished": ..., "status": "succeeded" | "failed", "result": ..., "error": null | "...",
 *  "tokens": {"prompt", "completion"},                      // everything the session spent
 *  "planning": {"rounds": [{"purpose": "plan" | "repair" | "replan", "format", "duration_ms", "tokens",
 *                           "valid", "problems": ["plan: seq_no 3 at /plan/3/...: ..."], "streamed"}],
 *               "tokens": {"prompt", "completion"}},        // what the planner's requests spent
 *  "stream": {"answers": [{"started_ms", "ended_ms", "valid",
 *                          "instructions": [{"seq_no", "type", "arrived_ms", "pointer", "problem"}],
 *                                             // pointer and problem: an instruction that failed its own check
 *                          "early_calls": [{"seq_no", "tool", "started_ms", "answered_ms", "failed"}]}],
 *             "early_calls": {"started", "used"}},          // only when answers streamed
 *  "runs": [{"run": id | null, "rerun_of", "from_seq", "started_ms", "ended_ms", "trace": {planvm-trace/1}}]}
 * }</pre>
 * Times ({@code *_ms}) count from the start of the agent run; a run's steps start at its
 * {@code started_ms} plus their own {@code start_ms}, so a call that did not start early started then.
 */
public final class AgentTraces {

    /** The format of the document. */
    public static final String FORMAT = "planvm-agent-trace/1";

    private AgentTraces() {}

    /**
     * The trace of a planning without a run ({@code planvm plan}), or the start of an agent run's.
     *
     * @param error why planning failed, or {@code null}
     */
    public static ObjectNode planning(
            String goal, RunMode mode, String started, List<PlanRound> rounds, String error, TokenCount spent) {
        ObjectNode trace = JsonNodeFactory.instance.objectNode();
        trace.put("format", FORMAT);
        trace.put("goal", goal);
        trace.put("mode", mode.label());
        trace.put("started", started);
        trace.put("finished", Instant.now().toString());
        trace.put("status", error == null ? "succeeded" : "failed");
        trace.putNull("result");
        if (error == null) {
            trace.putNull("error");
        } else {
            trace.put("error", error);
        }
        trace.set("tokens", spent.toJson());
        ObjectNode planning = trace.putObject("planning");
        ArrayNode list = planning.putArray("rounds");
        rounds.forEach(r -> list.add(r.toJson()));
        planning.set(
                "tokens",
                rounds.stream()
                        .map(PlanRound::tokens)
                        .reduce(TokenCount.ZERO, TokenCount::plus)
                        .toJson());
        return trace;
    }
}
