package dev.planvm.vm.reach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.reach.Reach;
import dev.planvm.instructions.reach.ReachPolicy;
import dev.planvm.instructions.reach.ToolFacts;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The reach policy is checked before a run starts, with the engine's own tool facts, plan tools and approval rules. */
class ReachPolicyRunTest {

    private final AtomicInteger deleted = new AtomicInteger();

    /** A corpus-like plan: a retrieval, an LLM answer, then a destructive call in a plan tool. */
    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search",
               "tool_params": {"query": "stale caches"}, "output_vars": "docs"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "cleanup",
               "tool_params": {"path": "${docs}"}, "output_vars": "final_answer"}}]""";

    private static final String CLEANUP = """
            {"name": "cleanup", "inputs": {"type": "object", "properties": {"path": {"type": "string"}}},
             "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fs:delete_file",
                        "tool_params": {"path": "${path}"}, "output_vars": "final_answer"}}]}""";

    private PlanVmBuilder builder() {
        Tool delete = new Tool() {
            @Override
            public String name() {
                return "fs:delete_file";
            }

            @Override
            public boolean hasSideEffects() {
                return true;
            }

            @Override
            public boolean isDestructive() {
                return true;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                deleted.incrementAndGet();
                return TextNode.valueOf("deleted");
            }
        };
        Plan cleanup =
                PlanVm.builder().build().loader().load(CLEANUP, "cleanup.json").planOrThrow();
        return PlanVm.builder()
                .tool(Tool.of("vector_search", "", (p, c) -> TextNode.valueOf("/tmp/cache")))
                .tool(delete)
                .planTool(cleanup)
                .reachPolicy(new ReachPolicy(Set.of(ReachPolicy.SIDE_EFFECTS), Map.of(), List.of()));
    }

    @Test
    void a_plan_reaching_a_destructive_tool_without_approval_is_refused_before_anything_runs() {
        PlanVm vm = builder().build();
        Plan plan = vm.loader().load(PLAN, "plan.json").planOrThrow();
        assertThatThrownBy(() -> vm.run(plan, Map.of()))
                .isInstanceOf(PlanRejectedException.class)
                .satisfies(e -> assertThat(((PlanRejectedException) e).problems())
                        .containsExactly("seq_no 0 of plan tool cleanup (called at seq_no 1): fs:delete_file is"
                                + " destructive and no approval rule gates it: the path 0 → 1 → cleanup@1/0 reaches it"
                                + " without approval (requireApprovalFor: side_effects; name it in approveTools or"
                                + " --approve-tools)"));
        assertThat(deleted).hasValue(0);
    }

    @Test
    void the_same_plan_runs_once_approval_is_configured_for_the_tool_or_for_the_plan_tool() {
        for (String glob : List.of("fs:*", "cleanup")) {
            PlanVm vm = builder()
                    .approveTools(List.of(glob))
                    .approvals(call -> Optional.of(Approvals.Decision.approve()))
                    .build();
            Plan plan = vm.loader().load(PLAN, "plan.json").planOrThrow();
            RunResult result = vm.run(plan, Map.of());
            assertThat(result.succeeded()).as(glob + ": " + result.error()).isTrue();
        }
        assertThat(deleted).hasValue(2);
    }

    @Test
    void the_report_uses_the_engines_tool_facts_and_the_runs_own_approval_rules() {
        PlanVm vm = builder().build();
        Plan plan = vm.loader().load(PLAN, "plan.json").planOrThrow();
        Reach reach = vm.reach(plan, RunMode.live(), RunOptions.DEFAULT.withApproveTools(List.of("fs:delete_file")));
        assertThat(reach.violations()).isEmpty();
        assertThat(reach.tool("fs:delete_file").orElseThrow().effect()).isEqualTo(ToolFacts.Effect.DESTRUCTIVE);
        assertThat(reach.tool("cleanup").orElseThrow().kind()).isEqualTo(Reach.ToolKind.PLAN_TOOL);
        assertThat(reach.tool("vector_search").orElseThrow().effect()).isEqualTo(ToolFacts.Effect.NONE);
        assertThat(reach.tool("fs:delete_file")
                        .orElseThrow()
                        .calls()
                        .get(0)
                        .params()
                        .get("path"))
                .extracting(Reach.Origin::describe)
                .containsExactlyInAnyOrder("the output of vector_search at seq_no 0", "a literal");
    }
}
