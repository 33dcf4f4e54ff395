package dev.planvm.instructions.reach;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Plans built to make the analysis expensive stay bounded in memory and in what the report lists. */
class HostileReachTest {

    private static final ReachPolicy DENY_SECRETS =
            new ReachPolicy(Set.of(), Map.of(), List.of(new ReachPolicy.DenyFlow("secret:*", "http:*")));

    @Test
    void thousands_of_variables_are_followed_over_the_whole_plan_in_one_state_and_stay_sound() {
        int n = 6000;
        StringBuilder json =
                new StringBuilder("[{\"seq_no\":0,\"type\":\"assign\",\"parameters\":{\"v0\":\"${KEY}\"}}");
        for (int i = 1; i < n; i++) {
            json.append(",{\"seq_no\":")
                    .append(i)
                    .append(",\"type\":\"assign\",\"parameters\":{\"v")
                    .append(i)
                    .append("\":\"${v")
                    .append(i - 1)
                    .append("}!\"}}");
        }
        json.append(",{\"seq_no\":")
                .append(n)
                .append(
                        ",\"type\":\"calling\",\"parameters\":{\"tool_name\":\"http:post\",\"tool_params\":{\"body\":\"${v")
                .append(n - 1)
                .append("}\"},\"output_vars\":\"final_answer\"}}]");
        Plan plan = new PlanLoader().load(json.toString(), "long.json").planOrThrow();
        assertThat((long) plan.instructions().size() * n).isGreaterThan(Flows.MAX_CELLS);
        Reach reach = PlanReach.analyze(plan, ToolFacts.NONE, Set.of("KEY"), DENY_SECRETS);
        assertThat(reach.notes()).anyMatch(note -> note.contains("followed over the whole plan at once"));
        assertThat(reach.violations())
                .singleElement()
                .satisfies(
                        v -> assertThat(v.message()).startsWith("seq_no " + n + ": secret KEY reaches http:post.body"));
    }

    @Test
    void a_plan_breaking_a_policy_thousands_of_times_lists_the_first_hundred_and_counts_the_rest() {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 500; i++) {
            json.append(i == 0 ? "" : ",")
                    .append("{\"seq_no\":")
                    .append(i)
                    .append(",\"type\":\"calling\",\"parameters\":{\"tool_name\":\"http:post\",\"tool_params\":")
                    .append("{\"a\":\"${KEY}\",\"b\":\"${KEY}\"}}}");
        }
        Plan plan =
                new PlanLoader().load(json.append("]").toString(), "many.json").planOrThrow();
        Reach reach = PlanReach.analyze(plan, ToolFacts.NONE, Set.of("KEY"), DENY_SECRETS);
        assertThat(reach.violations()).hasSize(PolicyCheck.MAX_VIOLATIONS + 1);
        assertThat(reach.violations().get(PolicyCheck.MAX_VIOLATIONS).message())
                .isEqualTo("900 more violations are not listed (the first 100 are)");
    }
}
