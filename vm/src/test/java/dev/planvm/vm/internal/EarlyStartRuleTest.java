package dev.planvm.vm.internal;

import static dev.planvm.vm.internal.StandInTools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import dev.planvm.vm.internal.EarlyStartRule.Start;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one "may this call start early" rule, for complete plans and for plans still arriving (issue 22). */
class EarlyStartRuleTest {

    private final ToolRegistry tools = ToolRegistry.of(List.of(
            tool("search", false),
            tool("send_mail", true),
            tool("secret", false),
            tool("pay", false),
            tool("summarize", false),
            tool("publish", true)));
    private final ToolPolicy denySecret = ToolPolicy.of(List.of(), List.of("secret"));
    private final ApprovalRules approvePay = ApprovalRules.of(List.of("pay"));
    /** {@code summarize} (read-only) and {@code publish} (side effects) stand for plan tools. */
    private final Set<String> planTools = Set.of("summarize", "publish");

    @Test
    void a_free_tool_starts_early_and_denied_approved_or_side_effecting_ones_never_do() {
        EarlyStartRule live = new EarlyStartRule(tools, denySecret, approvePay, false);
        assertThat(live.mayStartEarly("search")).isTrue();
        assertThat(live.mayStartEarly("send_mail")).as("side effects").isFalse();
        assertThat(live.mayStartEarly("secret")).as("denied").isFalse();
        assertThat(live.mayStartEarly("pay")).as("needs approval").isFalse();
        assertThat(live.mayStartEarly("nowhere")).as("unknown, live").isFalse();
    }

    @Test
    void a_read_only_plan_tool_is_called_at_its_turn_and_one_with_side_effects_stays_a_barrier() {
        EarlyStartRule rule = new EarlyStartRule(tools, denySecret, approvePay, false, planTools);
        assertThat(rule.startOf("summarize")).isEqualTo(Start.AT_TURN);
        assertThat(rule.mayStartEarly("summarize")).isFalse();
        assertThat(rule.startOf("publish")).isEqualTo(Start.BARRIER);
        assertThat(rule.startOf("search")).isEqualTo(Start.EARLY);
        assertThat(List.of("summarize", "publish", "search"))
                .as("calls no early answer stands in for: a session's EarlyAnswers asks the same rule")
                .filteredOn(rule::startsChildRun)
                .containsExactly("summarize", "publish");
        assertThat(new EarlyStartRule(tools, denySecret, approvePay, false).startOf("summarize"))
                .as("a VM where it is no plan tool")
                .isEqualTo(Start.EARLY);
    }

    @Test
    void a_replay_lets_an_unknown_tool_start_early_but_still_not_a_denied_or_side_effecting_one() {
        EarlyStartRule replay = new EarlyStartRule(tools, denySecret, ApprovalRules.NONE, true);
        assertThat(replay.mayStartEarly("nowhere")).isTrue();
        assertThat(replay.mayStartEarly("pay")).as("a replay asks nobody").isTrue();
        assertThat(replay.mayStartEarly("secret")).isFalse();
        assertThat(replay.mayStartEarly("send_mail")).isFalse();
    }

    /**
     * The run of a complete plan reads its {@link Dataflow}; a streamed plan asks {@link Dataflows#rule}, as the
     * VM's sessions do: a barrier is exactly a call the rule makes a barrier, and a call made at its turn is
     * never started early but lets a later independent call start before it.
     */
    @Test
    void complete_plans_and_streamed_plans_decide_alike_for_every_kind_of_call_plan_tools_too() {
        Dataflows dataflows = new Dataflows(tools, denySecret, approvePay, planTools);
        for (boolean offline : List.of(false, true)) {
            EarlyStartRule streamed = dataflows.rule(offline, approvePay);
            for (String name : List.of("search", "send_mail", "secret", "pay", "nowhere", "summarize", "publish")) {
                String plan = """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "%s", "tool_params": {}, "output_vars": ["x"]}},
                         {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {}, "output_vars": ["y"]}},
                         {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${x}${y}"}}]""".formatted(name);
                Plan loaded = new PlanLoader().load(plan, name).planOrThrow();
                Dataflow flow = dataflows.of(loaded, offline, approvePay);
                Start start = streamed.startOf(name);
                String as = name + (offline ? " offline" : " live");
                assertThat(flow.isBarrier(0)).as(as).isEqualTo(start != Start.EARLY);
                assertThat(flow.lastSideEffect[1] == 0)
                        .as(as + ": the later call waits for it")
                        .isEqualTo(start == Start.BARRIER);
            }
        }
        assertThat(dataflows.rule(false, approvePay).startOf("summarize")).isEqualTo(Start.AT_TURN);
    }
}
