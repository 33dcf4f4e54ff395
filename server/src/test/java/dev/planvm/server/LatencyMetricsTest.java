package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.server.testing.ServerFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GET /metrics over real HTTP: run, step and tool call latency histograms in the Prometheus text format. */
class LatencyMetricsTest {

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

    @Test
    void runs_steps_and_tool_calls_have_latency_histograms() throws Exception {
        for (int i = 0; i < 2; i++) {
            assertThat(fixture.post(
                                    "/v1/runs?wait=true",
                                    ServerFixture.runBody(HttpApiTest.HELLO, "\"inputs\": {\"name\": \"m\"}"))
                            .json()
                            .path("state")
                            .asText())
                    .isEqualTo("succeeded");
        }

        String text = fixture.get("/metrics").response().body();

        assertThat(text)
                .contains("# TYPE planvm_run_duration_seconds histogram")
                .contains("planvm_run_duration_seconds_count 2")
                .contains("planvm_run_duration_seconds_bucket{le=\"+Inf\"} 2")
                .contains("# TYPE planvm_step_duration_seconds histogram")
                .contains("planvm_step_duration_seconds_count{type=\"calling\"} 2")
                .contains("planvm_step_duration_seconds_count{type=\"assign\"} 2")
                .contains("planvm_step_duration_seconds_bucket{type=\"assign\",le=\"+Inf\"} 2")
                .contains("# TYPE planvm_tool_call_duration_seconds histogram")
                .contains("planvm_tool_call_duration_seconds_count{tool=\"echo\"} 2")
                .contains("planvm_tool_call_duration_seconds_bucket{tool=\"echo\",le=\"+Inf\"} 2")
                .containsPattern("planvm_run_duration_seconds_sum \\d+\\.\\d{6}\n");
        assertCumulative(text, "planvm_run_duration_seconds_bucket{");
        assertCumulative(text, "planvm_step_duration_seconds_bucket{type=\"calling\"");
        assertCumulative(text, "planvm_tool_call_duration_seconds_bucket{tool=\"echo\"");
        // the existing series are kept as they were
        assertThat(text).contains("planvm_call_duration_seconds_count{tool=\"echo\"} 2");
    }

    /** The series' bucket counts never decrease, and its last bucket is le="+Inf". */
    private static void assertCumulative(String text, String prefix) {
        List<String> lines = text.lines().filter(l -> l.startsWith(prefix)).toList();
        assertThat(lines).hasSizeGreaterThan(2);
        assertThat(lines.get(lines.size() - 1)).contains("le=\"+Inf\"");
        long previous = 0;
        for (String line : lines) {
            long value = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
            assertThat(value).as(line).isGreaterThanOrEqualTo(previous);
            previous = value;
        }
    }
}
