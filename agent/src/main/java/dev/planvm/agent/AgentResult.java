package dev.planvm.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.TokenCount;
import dev.planvm.vm.run.RunResult;
import java.util.List;

/**
 * What an agent run ({@link Agent#ask}) came to.
 *
 * @param plan   the last plan run (the first plan, or the last re-plan), or {@code null} when planning failed
 * @param runs   every run, in order: the first, then one child run per re-plan
 * @param rounds every answer of the planner (plans, repairs, re-plans)
 * @param error  why the agent run failed (planning, or the last run's error), or {@code null}
 * @param tokens what the whole session spent: planning, runs, re-plans (early calls included)
 * @param trace  the agent trace ({@code planvm-agent-trace/1})
 */
public record AgentResult(
        Plan plan, List<Run> runs, List<PlanRound> rounds, String error, TokenCount tokens, JsonNode trace) {

    /**
     * One run of a plan.
     *
     * @param id       the stored run's id, or {@code null} when runs are not stored
     * @param parent   the run it continues (a re-plan's child run), or {@code null}
     * @param fromSeq  the {@code seq_no} a child run started from, or {@code null}
     * @param result   how it ended
     */
    public record Run(String id, String parent, Integer fromSeq, RunResult result) {}

    public AgentResult {
        runs = List.copyOf(runs);
        rounds = List.copyOf(rounds);
    }

    public boolean succeeded() {
        return error == null
                && !runs.isEmpty()
                && runs.get(runs.size() - 1).result().succeeded();
    }

    /** The last run's {@code final_answer}; JSON null when nothing ran. */
    public JsonNode finalAnswer() {
        return runs.isEmpty()
                ? NullNode.getInstance()
                : runs.get(runs.size() - 1).result().finalAnswer();
    }

    /** The last run's result, or {@code null} when nothing ran. */
    public RunResult lastResult() {
        return runs.isEmpty() ? null : runs.get(runs.size() - 1).result();
    }

    /** How many re-plans were made. */
    public int replans() {
        return Math.max(0, runs.size() - 1);
    }
}
