package dev.planvm.server.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report shows what the plan could do beside what the run did. */
class ReachReportTest {

    static ReportInput input() {
        PlanVm vm = ReportRuns.vm();
        Plan plan = vm.loader().load(ReportRuns.PLAN, "report.json").planOrThrow();
        RunResult result = vm.run(plan, Map.of());
        JsonNode reach = vm.reach(plan, RunMode.live(), RunOptions.DEFAULT).toJson();
        return Reports.of(result.trace(), plan.document(), "report of report.json")
                .withReach(reach);
    }

    @Test
    void each_tool_the_plan_could_reach_is_a_row_with_how_often_its_sites_ran_here() {
        ObjectNode model = ReportModel.of(input());
        JsonNode rows = model.at("/reach/tools");
        assertThat(rows).extracting(row -> row.path("tool").asText()).containsExactly("flaky", "hostile", "lookup");
        JsonNode lookup = rows.get(2);
        assertThat(lookup.path("most").asText()).isEqualTo("2");
        assertThat(lookup.path("sites").asText()).isEqualTo("0, 1");
        assertThat(lookup.path("ran").asInt()).isEqualTo(2);
        assertThat(lookup.path("effect").asText()).isEqualTo("none");
        assertThat(model.at("/reach/branches/0").asText())
                .isEqualTo("seq_no 5: a run-time condition decides, both ways taken");
        assertThat(ReportModel.of(Reports.of(input().trace(), input().plan(), "no reach"))
                        .has("reach"))
                .isFalse();
    }

    @Test
    void the_page_carries_the_reach_for_its_script_and_the_same_policy_holds() {
        String html = HtmlReport.render(input());
        assertThat(html).contains("\"reach\":{").contains("What the plan could do");
        assertThat(html).contains("script-src 'sha256-");
    }
}
