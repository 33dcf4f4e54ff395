package dev.planvm.vm.internal;

import static dev.planvm.vm.internal.StandInTools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which calls of a plan are barriers for a run, whatever dataflow an earlier run of the same plan (with other
 * approval rules, offline or not) left in the VM's caches.
 */
class DataflowsTest {

    private static final ApprovalRules APPROVE_PAY = ApprovalRules.of(List.of("pay"));

    private final ToolRegistry tools = ToolRegistry.of(
            List.of(tool("search", false), tool("pay", false), tool("send_mail", true), tool("summarize", false)));

    /** A VM whose own rules ask before {@code pay}, with no plan tools. */
    private final Dataflows dataflows = dataflows(Set.of());

    /** A VM whose own rules ask before {@code pay}, with these plan tools ({@code summarize} stands for one). */
    private Dataflows dataflows(Set<String> planTools) {
        return new Dataflows(tools, ToolPolicy.ALLOW_ALL, APPROVE_PAY, planTools);
    }

    /** Positions 0 search, 1 pay, 2 send_mail, 3 summarize. */
    private final Plan plan = plan("""
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {}, "output_vars": ["a"]}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "pay", "tool_params": {}, "output_vars": ["b"]}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {}, "output_vars": ["c"]}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "summarize", "tool_params": {}, "output_vars": ["d"]}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${a}${b}${c}${d}"}}]""");

    private static Plan plan(String json) {
        LoadResult loaded = new PlanLoader().load(json, "plan.json");
        assertThat(loaded.errors()).isEmpty();
        return loaded.plan();
    }

    private static List<Boolean> barriers(Dataflow flow) {
        return List.of(flow.isBarrier(0), flow.isBarrier(1), flow.isBarrier(2), flow.isBarrier(3));
    }

    @Test
    void each_runs_approval_rules_decide_its_barriers_in_whatever_order_runs_come() {
        List<Boolean> vmRules = List.of(false, true, true, false);
        assertThat(barriers(dataflows.of(plan, false, APPROVE_PAY))).isEqualTo(vmRules);
        assertThat(barriers(dataflows.of(plan, false, ApprovalRules.NONE)))
                .as("a run that asks before nothing")
                .isEqualTo(List.of(false, false, true, false));
        assertThat(barriers(dataflows.of(plan, false, ApprovalRules.of(List.of("search")))))
                .as("a run with rules of its own")
                .isEqualTo(List.of(true, false, true, false));
        assertThat(barriers(dataflows.of(plan, false, APPROVE_PAY))).isEqualTo(vmRules);
    }

    @Test
    void a_replay_asks_nobody_but_a_side_effect_stays_a_barrier() {
        assertThat(barriers(dataflows.of(plan, true, APPROVE_PAY))).isEqualTo(List.of(false, false, true, false));
        assertThat(barriers(dataflows.of(plan, false, APPROVE_PAY)))
                .as("a live run after it")
                .isEqualTo(List.of(false, true, true, false));
    }

    @Test
    void a_run_whose_plan_calls_a_plan_tool_starts_that_call_only_at_its_turn() {
        Dataflows withPlanTool = dataflows(Set.of("summarize"));
        assertThat(barriers(withPlanTool.of(plan, false, APPROVE_PAY))).isEqualTo(List.of(false, true, true, true));
        assertThat(barriers(withPlanTool.of(plan, true, APPROVE_PAY)))
                .as("replayed")
                .isEqualTo(List.of(false, false, true, true));
        assertThat(barriers(withPlanTool.of(plan, false, ApprovalRules.NONE)))
                .as("with rules of the run's own")
                .isEqualTo(List.of(false, false, true, true));
        assertThat(barriers(dataflows.of(plan, false, APPROVE_PAY)))
                .as("no plan tools")
                .isEqualTo(List.of(false, true, true, false));
        assertThat(barriers(dataflows(Set.of("elsewhere")).of(plan, false, APPROVE_PAY)))
                .as("a plan tool the plan does not call")
                .isEqualTo(List.of(false, true, true, false));
    }
}
