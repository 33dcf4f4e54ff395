package dev.planvm.agent;

import dev.planvm.instructions.Plan;
import dev.planvm.tools.TokenCount;
import java.util.List;

/**
 * A valid plan from the planner, and the answers it took.
 *
 * @param plan   the plan (loaded and checked: it can run here)
 * @param rounds every answer, the last being the plan
 */
public record Planned(Plan plan, List<PlanRound> rounds) {

    public Planned {
        rounds = List.copyOf(rounds);
    }

    /** How many repairs were needed. */
    public int repairs() {
        return (int) rounds.stream().filter(r -> r.purpose().equals("repair")).count();
    }

    /** What the planner's requests spent. */
    public TokenCount tokens() {
        return rounds.stream().map(PlanRound::tokens).reduce(TokenCount.ZERO, TokenCount::plus);
    }
}
