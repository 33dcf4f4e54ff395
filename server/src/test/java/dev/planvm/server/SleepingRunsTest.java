package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run that sleeps holds no run slot and no thread on {@code planvm serve}: it stops waiting for its timer, which
 * continues it when it is due (after a restart too), and a cancel ends it at once. A real server on loopback, a real
 * HTTP client; the deadlines only bound "not hung", with wide margins.
 */
class SleepingRunsTest {

    static final String SLEEP_AN_HOUR = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 3600}, "output_vars": "slept"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "awake"}}]""";

    static final String SLEEP_A_SECOND = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 1}, "output_vars": "slept"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${slept.slept_seconds}"}}]""";

    static final String HELLO = """
            [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "hello"}}]""";

    @TempDir
    Path dir;

    private ServerFixture start(int maxRuns) throws Exception {
        return new ServerFixture(
                dir.resolve("runs.db"), ServiceSettings.DEFAULT.withMaxActiveRuns(maxRuns), ServerSettings.DEFAULT);
    }

    /** Polls the run until it has {@code state}, for at most a minute (a bound on "not hung", not a timing). */
    private static JsonNode awaitState(ServerFixture fixture, String id, String state) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode run = fixture.get("/v1/runs/" + id).json();
        while (!run.path("state").asText().equals(state) && System.nanoTime() < deadline) {
            ServerFixture.sleep(50);
            run = fixture.get("/v1/runs/" + id).json();
        }
        return run;
    }

    @Test
    void more_sleeping_runs_than_slots_are_all_accepted_and_a_new_run_still_runs() throws Exception {
        try (ServerFixture fixture = start(2)) {
            for (int i = 0; i < 6; i++) {
                Answer sleeping = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(SLEEP_AN_HOUR, ""));
                assertThat(sleeping.status()).as(sleeping.response().body()).isEqualTo(200);
                assertThat(sleeping.json().path("state").asText()).isEqualTo("waiting");
                assertThat(sleeping.json().at("/pending/kind").asText()).isEqualTo("sleep");
                assertThat(sleeping.json().at("/pending/wake_at").asText()).isNotEmpty();
            }
            Answer hello = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(HELLO, ""));
            assertThat(hello.status()).as("no slot is held by a sleeping run").isEqualTo(200);
            assertThat(hello.json().path("result").asText()).isEqualTo("hello");
            assertThat(fixture.service.metricsText()).contains("planvm_runs_active 0");
            assertThat(fixture.get("/v1/runs?state=waiting").json().path("runs"))
                    .hasSize(6)
                    .allSatisfy(
                            run -> assertThat(run.path("waiting_for").asText()).isEqualTo("sleep"));
        }
    }

    @Test
    void a_sleeping_run_is_continued_by_its_timer_when_it_is_due() throws Exception {
        try (ServerFixture fixture = start(1)) {
            Answer sleeping = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(SLEEP_A_SECOND, ""));
            assertThat(sleeping.json().path("state").asText()).isEqualTo("waiting");
            String id = sleeping.json().path("id").asText();

            JsonNode woke = awaitState(fixture, id, "succeeded");
            assertThat(woke.path("state").asText()).isEqualTo("succeeded");
            assertThat(woke.path("result").asDouble())
                    .as("the output says the whole sleep, from its start to its wake time")
                    .isBetween(0.9, 1.5);
        }
    }

    @Test
    void cancel_ends_a_sleeping_run_at_once() throws Exception {
        try (ServerFixture fixture = start(4)) {
            String id = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(SLEEP_AN_HOUR, ""))
                    .json()
                    .path("id")
                    .asText();

            Answer cancelled = fixture.post("/v1/runs/" + id + "/cancel", "{\"reason\": \"not needed\"}");
            assertThat(cancelled.status()).isEqualTo(202);
            assertThat(cancelled.json().path("state").asText()).isEqualTo("failed");
            JsonNode stored = fixture.get("/v1/runs/" + id).json();
            assertThat(stored.path("state").asText()).isEqualTo("failed");
            assertThat(stored.path("error").asText())
                    .isEqualTo("the run was cancelled while waiting for its sleep to end: not needed");
            assertThat(stored.path("pending").isNull()).isTrue();
            assertThat(fixture.runStore.sleeping()).isEmpty();
        }
    }

    @Test
    void a_server_that_starts_again_sets_the_timers_of_the_runs_it_left_sleeping() throws Exception {
        Path store = dir.resolve("runs.db");
        String id;
        try (ServerFixture first = start(1)) {
            id = first.post("/v1/runs?wait=true", ServerFixture.runBody(SLEEP_A_SECOND, ""))
                    .json()
                    .path("id")
                    .asText();
            first.service.shutdown(Duration.ofSeconds(5)); // its timer goes with it
        }
        try (RunStore runs = RunStore.open(store)) {
            assertThat(runs.sleeping()).extracting(RunStore.Sleeping::id).containsExactly(id);
        }
        try (ServerFixture second = start(1)) {
            assertThat(second.service.wakeSleeping()).isEqualTo(1);
            assertThat(awaitState(second, id, "succeeded").path("state").asText())
                    .isEqualTo("succeeded");
        }
        try (RunStore runs = RunStore.open(store);
                PlanVm vm = PlanVm.builder().build();
                PlanService other = new PlanService(vm, runs, ServiceSettings.DEFAULT.withOrigin("mcp"))) {
            assertThat(other.wakeSleeping()).as("nothing left sleeping").isZero();
        }
    }
}
