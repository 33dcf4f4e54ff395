package dev.planvm.vm.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchReportTest {

    private static PlanOutcome outcome(String file, RunStatus status, long ms) {
        return new PlanOutcome(
                Path.of(file),
                status,
                status == RunStatus.SUCCEEDED ? TextNode.valueOf("ok") : null,
                status == RunStatus.SUCCEEDED ? null : "why",
                ms,
                status == RunStatus.SUCCEEDED ? 3 : 0,
                List.of(),
                null);
    }

    @Test
    void the_summary_counts_statuses_and_names_the_five_slowest_plans() {
        List<PlanOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            outcomes.add(outcome("p" + i + ".json", RunStatus.SUCCEEDED, i * 10L));
        }
        outcomes.add(outcome("bad.json", RunStatus.INVALID, 1));
        outcomes.add(outcome("slow.json", RunStatus.FAILED, 812));
        BatchReport report = new BatchReport(outcomes, Duration.ofMillis(1300));
        assertThat(report.summary())
                .isEqualTo(String.join(
                        System.lineSeparator(),
                        "batch: 12 plans in 1.3 s (9.2 plans/s): 10 succeeded, 1 failed, 1 invalid",
                        "slowest: slow.json 812 ms, p9.json 90 ms, p8.json 80 ms, p7.json 70 ms, p6.json 60 ms"));
        assertThat(report.allSucceeded()).isFalse();
    }

    @Test
    void a_short_batch_of_one_plan_reads_naturally() {
        BatchReport report = new BatchReport(List.of(outcome("a.json", RunStatus.SUCCEEDED, 5)), Duration.ofMillis(20));
        assertThat(report.summary())
                .startsWith("batch: 1 plan in 20 ms (50.0 plans/s): 1 succeeded" + System.lineSeparator())
                .endsWith("slowest: a.json 5 ms");
        assertThat(report.allSucceeded()).isTrue();
    }

    @Test
    void each_json_line_has_every_field_and_null_for_what_is_missing() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        PlanOutcome ok = new PlanOutcome(
                Path.of("dir/a.json"), RunStatus.SUCCEEDED, IntNode.valueOf(42), null, 12, 3, List.of(), null);
        JsonNode line = mapper.readTree(BatchReport.jsonLine(ok));
        assertThat(line.toString())
                .isEqualTo(
                        "{\"file\":\"dir/a.json\",\"status\":\"succeeded\",\"final_answer\":42,\"error\":null,\"duration_ms\":12,\"steps\":3}");
        JsonNode rejected = mapper.readTree(BatchReport.jsonLine(outcome("b.json", RunStatus.REJECTED, 0)));
        assertThat(rejected.get("status").asText()).isEqualTo("rejected");
        assertThat(rejected.get("final_answer").isNull()).isTrue();
        assertThat(rejected.get("error").asText()).isEqualTo("why");
    }

    @Test
    void json_lines_keep_the_input_order_one_line_per_plan() {
        BatchReport report = new BatchReport(
                List.of(outcome("b.json", RunStatus.SUCCEEDED, 900), outcome("a.json", RunStatus.FAILED, 1)),
                Duration.ofSeconds(1));
        String[] lines = report.jsonLines().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).startsWith("{\"file\":\"b.json\"");
        assertThat(lines[1]).startsWith("{\"file\":\"a.json\"");
        assertThat(report.jsonLines()).endsWith("}\n");
    }
}
