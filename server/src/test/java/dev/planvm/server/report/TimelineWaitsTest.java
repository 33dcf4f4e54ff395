package dev.planvm.server.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.server.internal.UiAssets;
import org.junit.jupiter.api.Test;

/** A call that waited for a slot of its tool's concurrency limit shows the wait on the timeline, as a wait. */
class TimelineWaitsTest {

    @Test
    void a_calls_wait_for_a_slot_comes_with_it_and_the_renderer_draws_it_as_a_wait() throws Exception {
        JsonNode trace = new ObjectMapper().readTree("""
                {"steps": [{"seq_no": 0, "type": "calling", "start_ms": 0, "duration_ms": 300}],
                 "calls": [{"seq_no": 0, "kind": "tool", "tool": "svc", "start_ms": 1, "duration_ms": 250,
                            "outcome": "answered", "waited_ms": 200},
                           {"seq_no": 0, "kind": "tool", "tool": "svc", "start_ms": 1, "duration_ms": 50,
                            "outcome": "answered"}]}""");
        JsonNode calls = Timeline.of(trace).path("calls");
        assertThat(calls.get(0).path("waited_ms").asDouble()).isEqualTo(200);
        assertThat(calls.get(1).path("waited_ms").asDouble()).isZero();
        assertThat(UiAssets.text("report.js"))
                .contains("'bar wait slot'")
                .contains("for a slot of ")
                .contains("wait for a slot or before a retry");
    }
}
