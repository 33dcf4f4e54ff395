package dev.planvm.instructions.reach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanReachTest {

    private static Plan plan(String json) {
        LoadResult loaded = new PlanLoader().load(json, "test.json");
        assertThat(loaded.errors()).isEmpty();
        return loaded.plan();
    }

    private static ToolFacts facts(Map<String, ToolFacts.Fact> known) {
        return name -> known.getOrDefault(name, ToolFacts.Fact.unknown(name));
    }

    private static ToolFacts.Fact tool(String name, ToolFacts.Effect effect, boolean approval) {
        return new ToolFacts.Fact(name, effect, List.of(), approval, null);
    }

    private static List<String> messages(Reach reach) {
        return reach.violations().stream().map(Reach.Violation::message).toList();
    }

    @Test
    void a_constant_false_condition_never_takes_its_jump() {
        Plan plan = plan("""
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition": false, "jump_if_true": 2}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"target_seq": 3}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "fs:delete_file", "tool_params": {}}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": 1}}]""");
        Reach reach = PlanReach.analyze(plan, ToolFacts.NONE);
        assertThat(reach.tools()).isEmpty();
        assertThat(reach.branches()).isEmpty();
    }

    @Test
    void an_llm_condition_takes_both_ways_and_says_so() {
        Plan plan = plan("""
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition_prompt": "Go?", "jump_if_true": 2}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "a", "tool_params": {}}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "b", "tool_params": {}}}]""");
        Reach reach = PlanReach.analyze(plan, ToolFacts.NONE);
        assertThat(reach.tools()).extracting(Reach.ToolReach::tool).containsExactly("a", "b", Reach.CONDITION);
        assertThat(reach.branches()).containsExactly(new Reach.Branch(new Reach.Site(List.of(), 0), "llm"));
    }

    @Test
    void a_value_reassigned_no_longer_carries_its_old_source() {
        Plan plan = plan("""
                [{"seq_no": 0, "type": "assign", "parameters": {"x": "${API_KEY}"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"x": "plain"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "http:post", "tool_params": {"body": "${x}"}}}]""");
        Reach reach = PlanReach.analyze(
                plan,
                ToolFacts.NONE,
                Set.of("API_KEY"),
                new ReachPolicy(Set.of(), Map.of(), List.of(new ReachPolicy.DenyFlow("secret:*", "http:*"))));
        assertThat(reach.tool("http:post").orElseThrow().calls().get(0).params().get("body"))
                .extracting(Reach.Origin::kind)
                .containsExactly(Reach.Kind.LITERAL);
        assertThat(reach.violations()).isEmpty();
    }

    @Test
    void a_secret_passed_to_a_plan_tool_is_followed_into_its_calls() {
        Plan child = plan("""
                {"name": "notify", "inputs": {"type": "object", "properties": {"text": {"type": "string"}}},
                 "plan": [{"seq_no": 0, "type": "assign", "parameters": {"body": "note: ${text}"}},
                          {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "http:post",
                            "tool_params": {"body": "${body}"}, "output_vars": "final_answer"}}]}""");
        Plan parent = plan("""
                [{"seq_no": 0, "type": "assign", "parameters": {"token": "${API_KEY}"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "notify",
                   "tool_params": {"text": "${token}"}, "output_vars": "final_answer"}}]""");
        ToolFacts facts = facts(Map.of(
                "notify",
                new ToolFacts.Fact("notify", ToolFacts.Effect.UNKNOWN, List.of(), false, child),
                "http:post",
                tool("http:post", ToolFacts.Effect.SIDE_EFFECTS, false)));
        Reach reach = PlanReach.analyze(
                parent,
                facts,
                Set.of("API_KEY"),
                new ReachPolicy(Set.of(), Map.of(), List.of(new ReachPolicy.DenyFlow("secret:API_*", "http:*"))));
        assertThat(messages(reach))
                .containsExactly(
                        "seq_no 1 of plan tool notify (called at seq_no 1): secret API_KEY reaches http:post.body:"
                                + " secret API_KEY → token (seq_no 0) → text (seq_no 1) → body (seq_no 0 of plan tool notify"
                                + " (called at seq_no 1)) → http:post.body (denyFlows: secret:API_* → http:*)");
        assertThat(reach.tool("notify").orElseThrow().effect()).isEqualTo(ToolFacts.Effect.SIDE_EFFECTS);
    }

    @Test
    void an_approved_plan_tool_call_approves_the_calls_of_its_child() {
        Plan child = plan("""
                {"name": "cleanup", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fs:delete_file",
                  "tool_params": {"path": "/tmp/x"}, "output_vars": "final_answer"}}]}""");
        Plan parent = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "cleanup", "tool_params": {},
                  "output_vars": "final_answer"}}]""");
        ReachPolicy policy = new ReachPolicy(Set.of(ReachPolicy.SIDE_EFFECTS), Map.of(), List.of());
        ToolFacts.Fact delete = tool("fs:delete_file", ToolFacts.Effect.DESTRUCTIVE, false);
        Reach unapproved = PlanReach.analyze(
                parent,
                facts(Map.of(
                        "cleanup",
                        new ToolFacts.Fact("cleanup", ToolFacts.Effect.UNKNOWN, List.of(), false, child),
                        "fs:delete_file",
                        delete)),
                Set.of(),
                policy);
        assertThat(messages(unapproved))
                .containsExactly("seq_no 0 of plan tool cleanup (called at seq_no 0): fs:delete_file is destructive and"
                        + " no approval rule gates it: the path 0 → cleanup@0/0 reaches it without approval"
                        + " (requireApprovalFor: side_effects; name it in approveTools or --approve-tools)");
        Reach approved = PlanReach.analyze(
                parent,
                facts(Map.of(
                        "cleanup",
                        new ToolFacts.Fact("cleanup", ToolFacts.Effect.UNKNOWN, List.of(), true, child),
                        "fs:delete_file",
                        delete)),
                Set.of(),
                policy);
        assertThat(approved.violations()).isEmpty();
        assertThat(approved.tool("fs:delete_file").orElseThrow().unapproved()).isNull();
    }

    @Test
    void requiring_approval_for_destructive_calls_leaves_other_side_effects_alone() {
        Plan plan = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "mail:send", "tool_params": {}}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "mystery", "tool_params": {}}}]""");
        Reach reach = PlanReach.analyze(
                plan,
                facts(Map.of("mail:send", tool("mail:send", ToolFacts.Effect.SIDE_EFFECTS, false))),
                Set.of(),
                new ReachPolicy(Set.of(ReachPolicy.DESTRUCTIVE), Map.of(), List.of()));
        assertThat(messages(reach))
                .singleElement()
                .asString()
                .startsWith(
                        "seq_no 1: mystery is not known here, so it may change the world and no approval rule gates it");
        assertThat(reach.notes()).anyMatch(note -> note.startsWith("tool mystery is not known here"));
    }

    @Test
    void calls_on_one_path_are_counted_and_the_heaviest_path_is_named() {
        Plan plan = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "a"}}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition": "${go}", "jump_if_true": 3}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "b"}}},
                 {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "c"}}}]""");
        Reach reach = PlanReach.analyze(
                plan, ToolFacts.NONE, Set.of(), new ReachPolicy(Set.of(), Map.of("llm_*", 2L), List.of()));
        assertThat(reach.tool("llm_generate").orElseThrow().maxCalls()).isEqualTo(new Reach.Count(3, 0, null));
        assertThat(messages(reach))
                .containsExactly("seq_no 0: llm_generate can be called 3 times on one path through seq_no 0, 2, 3"
                        + " (maxCalls: llm_* ≤ 2)");
    }

    @Test
    void a_for_each_over_a_run_time_list_counts_per_element_up_to_the_cap() {
        Plan plan = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate", "for_each": "${docs}",
                  "tool_params": {"prompt": "${item}"}}}]""");
        Reach reach = PlanReach.analyze(
                plan, ToolFacts.NONE, Set.of(), new ReachPolicy(Set.of(), Map.of("llm_generate", 20L), List.of()));
        Reach.Count count = reach.tool("llm_generate").orElseThrow().maxCalls();
        assertThat(count).isEqualTo(new Reach.Count(0, 1, null));
        assertThat(count.atMost()).isEqualTo(1000);
        assertThat(messages(reach)).singleElement().asString().contains("up to 1000 times (1 per element");
    }

    @Test
    void a_plan_tool_called_per_element_multiplies_what_its_child_calls() {
        Plan child = plan("""
                {"name": "twice", "plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate", "for_each": [1, 2],
                   "tool_params": {"prompt": "${item}"}, "output_vars": "final_answer"}}]}""");
        Plan parent = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "twice", "for_each": "${xs}",
                  "tool_params": {}}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {}}}]""");
        ToolFacts facts =
                facts(Map.of("twice", new ToolFacts.Fact("twice", ToolFacts.Effect.UNKNOWN, List.of(), false, child)));
        Reach reach = PlanReach.analyze(parent, facts);
        assertThat(reach.tool("llm_generate").orElseThrow().maxCalls()).isEqualTo(new Reach.Count(2, 2, null));
        assertThat(reach.tool("twice").orElseThrow().maxCalls()).isEqualTo(new Reach.Count(1, 1, null));
    }

    @Test
    void a_plan_tool_reaching_itself_is_not_expanded_forever() {
        List<Plan> holder = new ArrayList<>();
        Plan loop = plan("""
                {"name": "again", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "again",
                  "tool_params": {}, "output_vars": "final_answer"}}]}""");
        holder.add(loop);
        ToolFacts facts = name -> new ToolFacts.Fact(name, ToolFacts.Effect.UNKNOWN, List.of(), false, holder.get(0));
        Reach reach = PlanReach.analyze(loop, facts);
        assertThat(reach.complete()).isFalse();
        assertThat(reach.notes()).anyMatch(note -> note.contains("plan tool again reaches itself"));
    }

    @Test
    void a_custom_instruction_may_write_anything_and_jump_anywhere_and_the_report_says_it_is_incomplete() {
        Plan plan = new PlanLoader(Set.of(), Set.of("notify"))
                .load("""
                        [{"seq_no": 0, "type": "assign", "parameters": {"x": "plain"}},
                         {"seq_no": 1, "type": "notify", "parameters": {"to": "${x}"}},
                         {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "http:post",
                           "tool_params": {"body": "${x}"}, "output_vars": "final_answer"}}]""", "custom.json")
                .planOrThrow();
        Reach reach = PlanReach.analyze(plan, ToolFacts.NONE);
        assertThat(reach.complete()).isFalse();
        assertThat(reach.notes()).anyMatch(note -> note.startsWith("seq_no 1: what a custom instruction ('notify')"));
        assertThat(reach.tool("http:post").orElseThrow().calls().get(0).params().get("body"))
                .extracting(Reach.Origin::describe)
                .containsExactlyInAnyOrder("a literal", "what the custom instruction at seq_no 1 wrote");
        assertThat(reach.tool("http:post").orElseThrow().maxCalls())
                .as("the custom instruction may jump anywhere, but nothing jumps back from the call")
                .isEqualTo(Reach.Count.ONE);
    }

    @Test
    void the_report_fits_its_json_schema() {
        var schema = com.networknt.schema.SchemaRegistry.withDefaultDialect(
                        com.networknt.schema.SpecificationVersion.DRAFT_2020_12)
                .getSchema(Reach.schema());
        Plan plan = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate",
                   "tool_params": {"prompt": "${q}"}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition": "${a == ''}", "jump_if_true": 0}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "x", "tool_params": {"a": "${a}"}}}]""");
        Reach reach = PlanReach.analyze(
                plan, ToolFacts.NONE, Set.of(), new ReachPolicy(Set.of("side_effects"), Map.of("*", 1L), List.of()));
        assertThat(schema.validate(reach.toJson())).isEmpty();
        assertThat(reach.toJson().at("/tools/0/max_calls/unbounded").asBoolean())
                .isTrue();
        assertThat(reach.violations())
                .extracting(Reach.Violation::rule)
                .containsExactly("requireApprovalFor", "requireApprovalFor", "maxCalls");
    }

    @Test
    void a_policy_section_with_mistakes_reports_each_where_it_is() {
        List<String> problems = new ArrayList<>();
        var section = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        section.putArray("requireApprovalFor").add("everything");
        section.putObject("maxCalls").put("llm_generate", -1);
        section.putArray("denyFlows").addObject().put("from", "password").put("to", "http:*");
        section.put("maxcalls", 1);
        ReachPolicy policy = ReachPolicy.read(section, "/policy", (at, why) -> problems.add(at + ": " + why));
        assertThat(policy.isEmpty()).isTrue();
        assertThat(problems)
                .containsExactly(
                        "/policy/maxcalls: unknown key 'maxcalls'; known keys: requireApprovalFor, maxCalls, denyFlows",
                        "/policy/requireApprovalFor/0: must be \"side_effects\" or \"destructive\", not \"everything\"",
                        "/policy/maxCalls/llm_generate: must be a whole number of calls, 0 or more, not -1",
                        "/policy/denyFlows/0: a denyFlows 'from' is KIND or KIND:GLOB with KIND one of literal, input,"
                                + " secret, llm, tool, unknown, not 'password'");
        assertThat(ReachPolicy.DenyFlow.parse("secret:*=http:*"))
                .isEqualTo(new ReachPolicy.DenyFlow("secret:*", "http:*"));
        assertThatThrownBy(() -> ReachPolicy.DenyFlow.parse("secret:*")).hasMessageContaining("FROM=TO");
    }
}
