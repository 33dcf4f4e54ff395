package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.reach.ReachPolicy;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /v1/validate} with {@code reach}, and the reach policy of {@code planvm serve} before a run starts. */
class ReachApiTest {

    private static final String MAIL = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"to": "${who}"},
               "output_vars": "addr"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "${addr}"},
               "output_vars": "final_answer"}}]""";

    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.DEFAULT,
                builder -> builder.reachPolicy(new ReachPolicy(Set.of("side_effects"), Map.of(), List.of())));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void validate_with_reach_answers_what_the_plan_can_do_and_the_policy_makes_it_not_runnable() throws Exception {
        Answer answer = fixture.post("/v1/validate", "{\"plan\": " + MAIL + ", \"reach\": true}");
        assertThat(answer.status()).isEqualTo(200);
        JsonNode report = answer.json();
        assertThat(report.path("valid").asBoolean()).isTrue();
        assertThat(report.path("runnable").asBoolean()).isFalse();
        assertThat(report.path("problems").get(0).asText())
                .isEqualTo("seq_no 1: send_mail has side effects and no approval rule gates it: the path 0 → 1 reaches"
                        + " it without approval (requireApprovalFor: side_effects; name it in approveTools or"
                        + " --approve-tools)");
        JsonNode reach = report.path("reach");
        assertThat(reach.path("format").asText()).isEqualTo("planvm-reach/1");
        assertThat(reach.at("/tools/1/tool").asText()).isEqualTo("send_mail");
        assertThat(reach.at("/tools/1/effect").asText()).isEqualTo("side_effects");
        assertThat(reach.at("/tools/1/calls/0/params/to").findValuesAsText("kind"))
                .containsExactly("tool", "input");
        assertThat(fixture.post("/v1/validate", "{\"plan\": " + MAIL + "}")
                        .json()
                        .has("reach"))
                .isFalse();

        Answer approved = fixture.post("/v1/validate", "{\"plan\": " + MAIL + ", \"approve_tools\": [\"send_*\"]}");
        assertThat(approved.json().path("runnable").asBoolean()).isTrue();
    }

    @Test
    void a_run_the_policy_refuses_is_422_naming_the_path_and_nothing_runs() throws Exception {
        Answer refused =
                fixture.post("/v1/runs?wait=true", ServerFixture.runBody(MAIL, "\"inputs\": {\"who\": \"ann\"}"));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().toString()).contains("send_mail has side effects and no approval rule gates it");
        assertThat(fixture.mails).hasValue(0);
        assertThat(fixture.echoes).hasValue(0);
    }
}
