package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the run browser draws child runs from (issue 23): the report model of a parent names each plan-tool
 * step's child run, its {@code run} part lists the children, a child's names its parent, and the run list gives
 * each run's {@code parent_run_id}. Runs {@code plans/plan-tools-parent.json} with {@code plans/plan-tools}.
 */
class ChildRunsReportApiTest {

    @TempDir
    Path dir;

    @Test
    void the_report_model_and_the_run_list_name_children_and_parents() throws Exception {
        try (ServerFixture fixture = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.DEFAULT,
                builder -> builder.planTools(Path.of("../plans/plan-tools")))) {
            ObjectNode body = ServerFixture.JSON.createObjectNode().put("name", "plan-tools-parent.json");
            body.set(
                    "plan",
                    ServerFixture.JSON.readTree(
                            Path.of("../plans/plan-tools-parent.json").toFile()));
            JsonNode done = fixture.post("/v1/runs?wait=true", body.toString()).json();
            assertThat(done.path("state").asText()).as(done.toString()).isEqualTo("succeeded");
            String parentId = done.path("id").asText();

            JsonNode report = fixture.get("/v1/runs/" + parentId + "/report").json();
            List<String> stepChildren = new ArrayList<>();
            for (JsonNode step : report.path("steps")) {
                if (step.path("seq").asInt() < 3) {
                    assertThat(step.path("children")).as(step.toString()).hasSize(1);
                }
                step.path("children").forEach(c -> stepChildren.add(c.asText()));
            }
            List<String> listed = new ArrayList<>();
            report.path("run")
                    .path("children")
                    .forEach(c -> listed.add(c.path("id").asText()));
            assertThat(stepChildren).hasSize(3).containsExactlyInAnyOrderElementsOf(listed);
            assertThat(report.path("run").path("parent_run_id").isNull()).isTrue();

            String childId = stepChildren.get(0);
            JsonNode child = fixture.get("/v1/runs/" + childId + "/report").json();
            assertThat(child.path("run").path("parent_run_id").asText()).isEqualTo(parentId);
            assertThat(child.path("run").path("parent_seq_no").asInt()).isZero();
            assertThat(child.path("steps")).hasSize(2);

            JsonNode list = fixture.get("/v1/runs?limit=10").json();
            for (JsonNode run : list.path("runs")) {
                String expected = run.path("id").asText().equals(parentId) ? null : parentId;
                assertThat(run.path("parent_run_id").textValue())
                        .as(run.toString())
                        .isEqualTo(expected);
            }
            assertThat(list.path("runs")).hasSize(4);
        }
    }
}
