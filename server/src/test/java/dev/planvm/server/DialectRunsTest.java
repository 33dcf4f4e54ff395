package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP API speaks every dialect and takes the run's clock: a YAML plan sent as text with
 * {@code "dialect": "yaml"} validates and runs, and {@code now}/{@code tz} in the run request fix its
 * {@code today}. Through the JDK's HTTP client on 127.0.0.1.
 */
class DialectRunsTest {

    /** Seed 000's dataflow: the echo tool answers its params, so the result shows the dates the plan computed. */
    static final String MEETING = """
            # when do we meet?
            meeting:
              echo:
                day: ${today}
                at: ${next(Thursday).at('9:00am')}
            result: ${meeting}
            """;

    /** Thursday 2026-11-26 23:30 in UTC, which is already Friday 2026-11-27 12:30 in Auckland (NZDT, +13:00). */
    static final String NOW = "2026-11-26T23:30:00Z";

    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = ServerFixture.start(dir);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private static String yaml(String text) {
        return TextNode.valueOf(text).toString();
    }

    @Test
    void a_yaml_plan_sent_with_its_dialect_runs_on_the_clock_of_the_request() throws Exception {
        Answer run = fixture.post(
                "/v1/runs?wait=true",
                ServerFixture.runBody(
                        yaml(MEETING),
                        "\"dialect\": \"yaml\", \"now\": \"" + NOW + "\", \"tz\": \"Pacific/Auckland\""));
        assertThat(run.status()).isEqualTo(200);
        assertThat(run.json().path("state").asText()).isEqualTo("succeeded");
        // Friday 2026-11-27 in Auckland; the next Thursday is 2026-12-03, at 09:00 NZDT.
        assertThat(run.json().at("/result/day/0").asText()).isEqualTo("2026-11-27");
        assertThat(run.json().at("/result/at/0").asText()).isEqualTo("2026-12-03T09:00:00+13:00");

        Answer stored = fixture.get("/v1/runs/" + run.json().path("id").asText());
        assertThat(stored.json().at("/plan/source").asText()).isEqualTo("plan.yaml");
        assertThat(stored.json().at("/options/clock/now").asText()).isEqualTo(NOW);
        assertThat(stored.json().at("/options/clock/tz").asText()).isEqualTo("Pacific/Auckland");
        assertThat(stored.json().at("/steps/0/line").asInt())
                .as("the step names its YAML line")
                .isEqualTo(3);
    }

    @Test
    void the_same_instant_in_another_zone_is_another_day() throws Exception {
        Answer utc = fixture.post(
                "/v1/runs?wait=true",
                ServerFixture.runBody(
                        yaml(MEETING), "\"dialect\": \"yaml\", \"now\": \"" + NOW + "\", \"tz\": \"UTC\""));
        // Thursday 2026-11-26 in UTC: next(Thursday) is never today, so it is a week later.
        assertThat(utc.json().at("/result/day/0").asText()).isEqualTo("2026-11-26");
        assertThat(utc.json().at("/result/at/0").asText()).isEqualTo("2026-12-03T09:00:00Z");

        Answer local = fixture.post(
                "/v1/runs?wait=true",
                ServerFixture.runBody(
                        yaml(MEETING),
                        "\"name\": \"meeting.yml\", \"now\": \"2026-11-26T00:30\", \"tz\": \"America/New_York\""));
        assertThat(local.json().path("state").asText())
                .as("the dialect from the name's extension")
                .isEqualTo("succeeded");
        // a local now is read in tz: 00:30 on Thursday in New York (EST, -05:00)
        assertThat(local.json().at("/result/day/0").asText()).isEqualTo("2026-11-26");
        assertThat(local.json().at("/result/at/0").asText()).isEqualTo("2026-12-03T09:00:00-05:00");
    }

    @Test
    void a_yaml_plan_validates_with_the_inputs_it_may_read_and_its_errors_are_located_lines() throws Exception {
        String plan = yaml("result: ${user} meets ${next(Thursday)}\n");
        Answer valid = fixture.post(
                "/v1/validate", "{\"plan\": " + plan + ", \"dialect\": \"yaml\", \"inputs\": {\"user\": \"Ann\"}}");
        assertThat(valid.status()).isEqualTo(200);
        assertThat(valid.json().path("valid").asBoolean()).isTrue();
        assertThat(valid.json().path("instructions").asInt()).isEqualTo(1);

        Answer unknown = fixture.post("/v1/validate", "{\"plan\": " + plan + ", \"dialect\": \"yaml\"}");
        assertThat(unknown.json().path("valid").asBoolean()).isFalse();
        assertThat(unknown.json().path("diagnostics").get(0).path("line").asText())
                .startsWith("plan.yaml: line 1, column ")
                .contains("unknown name 'user'");

        Answer refused = fixture.post("/v1/runs", ServerFixture.runBody(plan, "\"name\": \"ann.yaml\""));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().path("message").asText())
                .startsWith("ann.yaml is not a valid plan")
                .contains("line 1, column");
    }

    @Test
    void a_malformed_dialect_or_clock_is_a_bad_request_naming_the_field() throws Exception {
        String plan = yaml(MEETING);
        assertThat(message(ServerFixture.runBody(plan, "\"dialect\": \"cobol\"")))
                .isEqualTo("/dialect: must be \"yaml\", \"js\", \"ppe\", \"idyll\" or \"json\", not \"cobol\"");
        assertThat(message(ServerFixture.runBody("[{\"seq_no\": 0}]", "\"dialect\": \"yaml\"")))
                .isEqualTo("/plan: a yaml plan is given as text, not an array");
        assertThat(message(ServerFixture.runBody(plan, "\"dialect\": \"yaml\", \"now\": \"2026-11-26T09:00\"")))
                .startsWith("/now: '2026-11-26T09:00' has no offset");
        assertThat(message(ServerFixture.runBody(plan, "\"dialect\": \"yaml\", \"now\": \"next week\"")))
                .startsWith("/now: 'next week' is not an instant");
        assertThat(message(ServerFixture.runBody(plan, "\"dialect\": \"yaml\", \"tz\": \"Mars/Olympus\"")))
                .startsWith("/tz: 'Mars/Olympus' is not a time zone");
        assertThat(message(ServerFixture.runBody(plan, "\"dialect\": \"yaml\", \"now\": \"+99999-01-01T00:00:00Z\"")))
                .startsWith("/now: ");
    }

    private String message(String body) throws Exception {
        Answer answer = fixture.post("/v1/runs", body);
        assertThat(answer.status()).as(answer.response().body()).isEqualTo(400);
        JsonNode json = answer.json();
        return json.path("message").asText();
    }
}
