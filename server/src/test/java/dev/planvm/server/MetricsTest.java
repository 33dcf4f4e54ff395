package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.call.Call;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Prometheus text: histogram buckets add up, label values are escaped, and tool labels are bounded. */
class MetricsTest {

    @Test
    void buckets_are_cumulative_and_tool_labels_stop_at_the_limit() {
        Metrics metrics = new Metrics();
        for (int i = 0; i < Metrics.MAX_TOOLS + 50; i++) {
            Call call = new Call.ToolCall("tool" + i + "\"\\\n", TextNode.valueOf("x"), CallContext.of(0));
            metrics.callStarted(call);
            metrics.callFinished(call, TextNode.valueOf("y"), 3_000_000L * (i % 3 + 1));
        }
        String text = metrics.text(Map.of("succeeded", 2));
        long tools = text.lines()
                .filter(l -> l.startsWith("planvm_call_duration_seconds_count{"))
                .count();
        assertThat(tools).isEqualTo(Metrics.MAX_TOOLS + 1);
        assertThat(text)
                .contains("planvm_call_duration_seconds_count{tool=\"other\"} 50")
                .contains("planvm_call_duration_seconds_bucket{tool=\"tool0\\\"\\\\\\n\",le=\"0.005\"} 1")
                .contains("planvm_calls_in_flight 0")
                .contains("planvm_runs_stored{status=\"succeeded\"} 2");
        assertThat(text).doesNotContain("tool0\"\\\n\"");
    }

    @Test
    void each_tools_concurrency_limit_waits_and_throttled_attempts_are_exported() {
        String text =
                new Metrics().text(Map.of(), Map.of("svc", new dev.planvm.vm.run.ToolLimit("svc", 10, 3, 5, 90, 40)));
        assertThat(text)
                .contains("# TYPE planvm_tool_concurrency_limit gauge")
                .contains("planvm_tool_concurrency_limit{tool=\"svc\"} 10")
                .contains("planvm_tool_calls_waiting{tool=\"svc\"} 5")
                .contains("# TYPE planvm_tool_throttled_total counter")
                .contains("planvm_tool_throttled_total{tool=\"svc\"} 90")
                .contains("planvm_tool_slot_waits_total{tool=\"svc\"} 40");
    }
}
