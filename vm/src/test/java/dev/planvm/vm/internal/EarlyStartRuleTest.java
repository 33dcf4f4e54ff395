package dev.planvm.vm.internal;

import static dev.planvm.vm.internal.StandInTools.tool;
import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one "may this call start early" rule, for complete plans and for plans still arriving (issue 22). */
class EarlyStartRuleTest {

    private final ToolRegistry tools = ToolRegistry.of(
            List.of(tool("search", false), tool("send_mail", true), tool("secret", false), tool("pay", false)));
    private final ToolPolicy denySecret = ToolPolicy.of(List.of(), List.of("secret"));
    private final ApprovalRules approvePay = ApprovalRules.of(List.of("pay"));

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
    void a_plan_tool_whose_calls_are_child_runs_never_starts_early_even_when_read_only() {
        EarlyStartRule streamed = new EarlyStartRule(tools, denySecret, approvePay, false, java.util.Set.of("search"));
        assertThat(streamed.mayStartEarly("search")).isFalse();
        assertThat(new EarlyStartRule(tools, denySecret, approvePay, false).mayStartEarly("search"))
                .isTrue();
    }

    @Test
    void a_replay_lets_an_unknown_tool_start_early_but_still_not_a_denied_or_side_effecting_one() {
        EarlyStartRule replay = new EarlyStartRule(tools, denySecret, ApprovalRules.NONE, true);
        assertThat(replay.mayStartEarly("nowhere")).isTrue();
        assertThat(replay.mayStartEarly("pay")).as("a replay asks nobody").isTrue();
        assertThat(replay.mayStartEarly("secret")).isFalse();
        assertThat(replay.mayStartEarly("send_mail")).isFalse();
    }

    @Test
    void complete_plans_and_streamed_plans_decide_alike_a_barrier_is_exactly_a_call_that_may_not_start_early() {
        Dataflows dataflows = new Dataflows(tools, denySecret, approvePay);
        EarlyStartRule rule = new EarlyStartRule(tools, denySecret, approvePay, false);
        for (String name : List.of("search", "send_mail", "secret", "pay", "nowhere")) {
            String plan = """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "%s", "tool_params": {}, "output_vars": ["x"]}},
                     {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${x}"}}]""".formatted(name);
            var loaded =
                    new dev.planvm.instructions.PlanLoader().load(plan, name).planOrThrow();
            Dataflow flow = dataflows.of(loaded, false, approvePay);
            assertThat(flow.isBarrier(0)).as(name).isEqualTo(!rule.mayStartEarly(name));
        }
    }
}
