package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code planvm report} from a trace file and from the store, and {@code planvm test --html} for failing regressions. */
class ReportCommandTest {

    @TempDir
    Path dir;

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    @Test
    void a_report_is_written_from_a_trace_with_its_plan_and_from_a_stored_run_with_its_lineage() throws Exception {
        Path plan = Files.writeString(dir.resolve("loop.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                 {"seq_no": 1, "type": "assign", "parameters": {"i": "${i + 1}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${i < 3}", "jump_if_true": 1}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${i * n}"}}]""");
        Path trace = dir.resolve("trace.json");
        CliRun failed = planvm("run", plan.toString(), "--trace", trace.toString());
        assertThat(failed.exitCode()).isEqualTo(1);
        Path fromTrace = dir.resolve("trace.html");
        CliRun report = planvm("report", trace.toString(), "-o", fromTrace.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        String html = Files.readString(fromTrace);
        assertThat(html)
                .contains("id=\"report-data\"", "\"graph\":", "\"timeline\":")
                .contains("{\"kind\":\"jump\",\"from\":2,\"to\":1,\"count\":2}")
                .containsPattern("\\{\"seq\":3,[^}]*\"outcome\":\"failed\"}");
        String id =
                failed.err().replaceAll("(?s).*planvm resume (\\w+).*", "$1").trim();
        CliRun rerun = planvm("rerun", id, "--from", "3", "--var", "n=5");
        assertThat(rerun.out()).isEqualTo("15\n");
        String child =
                rerun.err().replaceAll("(?s)run (\\w+): rerun of.*", "$1").trim();
        Path fromStore = dir.resolve("run.html");
        assertThat(planvm("report", child, "-o", fromStore.toString()).exitCode())
                .isZero();
        assertThat(Files.readString(fromStore))
                .contains("\"lineage\":[\"" + id + " failed")
                .contains(child + " succeeded")
                .contains("rerun of " + id + " from seq_no 3");
        CliRun missing =
                planvm("report", "nosuchrun", "-o", dir.resolve("x.html").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("no run 'nosuchrun'");
        Path notATrace = Files.writeString(dir.resolve("not.json"), "{\"format\": \"planvm-cassette/1\"}");
        assertThat(planvm("report", notATrace.toString()).err()).contains("not a planvm trace");
    }

    @Test
    void test_html_writes_a_report_for_each_failing_plan_with_its_differences() throws Exception {
        Path plans = Files.createDirectories(dir.resolve("plans"));
        Files.writeString(
                plans.resolve("ok.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        Files.writeString(plans.resolve("ok.expected.json"), "{\"final_answer\": 1}");
        Files.writeString(
                plans.resolve("bad.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 2}}]");
        Files.writeString(plans.resolve("bad.expected.json"), "{\"final_answer\": 3}");
        Path out = dir.resolve("html");
        CliRun test = planvm("test", plans.toString(), "--html", out.toString());
        assertThat(test.exitCode()).isEqualTo(1);
        assertThat(test.out()).contains("  report: " + out.resolve("bad.html"));
        assertThat(out.resolve("ok.html")).doesNotExist();
        assertThat(Files.readString(out.resolve("bad.html")))
                .contains("\"diff\":[")
                .contains("/final_answer: expected 3, got 2")
                .contains("\"graph\":");
    }
}
