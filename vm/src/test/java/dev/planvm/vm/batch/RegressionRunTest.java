package dev.planvm.vm.batch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegressionRunTest {

    private static final String ANSWER_42 =
            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 42}}]";
    private static final String LOOKUP = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"q": "a"}, "output_vars": "found"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${found}"}}]""";
    private static final String LOOKUP_CASSETTE = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "lookup", "params": {"q": "a"}, "output": "A", "duration_ms": 1}]}""";

    @TempDir
    Path dir;

    private final RegressionRun regression =
            new RegressionRun(new PlanFileRunner(PlanVm.builder().build()), Map.of());

    private Path write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    private static final String SLEEPS_30_DAYS = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 2592000}, "output_vars": "slept"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "awake"}}]""";

    @Test
    void a_plan_still_running_when_its_time_is_up_fails_saying_where_it_was_even_when_failure_was_expected()
            throws Exception {
        Path plan = write("sleeps.json", SLEEPS_30_DAYS);
        write("sleeps.expected.json", "{\"final_answer\": null, \"status\": \"failed\"}");
        RegressionRun limited = regression.withTimeLimit(java.time.Duration.ofMillis(300));

        RegressionResult result = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                java.time.Duration.ofSeconds(60), () -> limited.test(plan)); // not hung: the limit is 0.3 s
        assertThat(result.verdict()).isEqualTo(RegressionResult.Verdict.FAILED);
        assertThat(result.lines())
                .containsExactly(
                        "FAIL " + plan,
                        "  " + plan + ": the plan did not finish within 0.3 s, the time limit of a plan test (planvm"
                                + " test --plan-timeout): it was at seq_no 0, calling sleep");
        assertThat(regression.timeLimit()).isEqualTo(RegressionRun.DEFAULT_TIME_LIMIT);
    }

    @Test
    void an_update_of_a_plan_still_running_when_its_time_is_up_writes_nothing() throws Exception {
        Path plan = write("sleeps.json", SLEEPS_30_DAYS);
        RegressionRun limited = regression.withTimeLimit(java.time.Duration.ofMillis(300));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> limited.update(plan))
                .isInstanceOf(RegressionRun.TimedOut.class)
                .hasMessageContaining("the plan did not finish within 0.3 s");
        assertThat(PlanFileRunner.expectationFor(plan)).doesNotExist();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> regression.withTimeLimit(java.time.Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
    }

    @Test
    void a_plan_that_meets_its_expectation_passes() throws Exception {
        Path plan = write("a.json", ANSWER_42);
        write("a.expected.json", "{\"final_answer\": 42.0}");
        RegressionResult result = regression.test(plan);
        assertThat(result.verdict()).isEqualTo(RegressionResult.Verdict.PASSED);
        assertThat(result.lines()).singleElement().asString().matches("PASS .*a\\.json \\(\\d+ ms\\)");
    }

    @Test
    void a_plan_that_does_not_fails_with_each_difference_indented() throws Exception {
        Path plan = write("a.json", ANSWER_42);
        write("a.expected.json", "{\"final_answer\": 43}");
        RegressionResult result = regression.test(plan);
        assertThat(result.verdict()).isEqualTo(RegressionResult.Verdict.FAILED);
        assertThat(result.lines()).containsExactly("FAIL " + plan, "  /final_answer: expected 43, got 42");
    }

    @Test
    void the_cassette_beside_a_plan_is_replayed() throws Exception {
        Path plan = write("lookup.json", LOOKUP);
        write("lookup.cassette.json", LOOKUP_CASSETTE);
        write("lookup.expected.json", "{\"final_answer\": \"A\"}");
        assertThat(regression.test(plan).verdict()).isEqualTo(RegressionResult.Verdict.PASSED);
    }

    @Test
    void without_a_cassette_a_plan_calling_a_missing_tool_is_rejected() throws Exception {
        Path plan = write("lookup.json", LOOKUP);
        write("lookup.expected.json", "{\"final_answer\": \"A\"}");
        RegressionResult result = regression.test(plan);
        assertThat(result.verdict()).isEqualTo(RegressionResult.Verdict.FAILED);
        assertThat(result.details().get(0))
                .isEqualTo(
                        "status: expected \"succeeded\", got \"rejected\" (seq_no 0: tool 'lookup' is not installed (no tools are installed))");
    }

    @Test
    void a_plan_without_an_expectation_is_skipped_without_running() throws Exception {
        Path plan = write("b.json", "not even JSON");
        RegressionResult result = regression.test(plan);
        assertThat(result.verdict()).isEqualTo(RegressionResult.Verdict.SKIPPED);
        assertThat(result.lines()).containsExactly("SKIP " + plan + " (no b.expected.json)");
    }

    @Test
    void an_unusable_expectation_fails_the_plan_and_says_why() throws Exception {
        Path plan = write("a.json", ANSWER_42);
        write("a.expected.json", "{\"final_answer\": 42, \"stauts\": \"succeeded\"}");
        RegressionResult result = regression.test(plan);
        assertThat(result.verdict()).isEqualTo(RegressionResult.Verdict.FAILED);
        assertThat(result.details())
                .singleElement()
                .asString()
                .startsWith("expectation " + dir.resolve("a.expected.json")
                        + ": unknown key 'stauts': did you mean 'status'?");
    }

    @Test
    void inputs_are_set_in_every_plan() throws Exception {
        Path plan = write(
                "c.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${n + 1}\"}}]");
        write("c.expected.json", "{\"final_answer\": 8}");
        Map<String, JsonNode> inputs = Map.of("n", IntNode.valueOf(7));
        RegressionRun withInputs =
                new RegressionRun(new PlanFileRunner(PlanVm.builder().build()), inputs);
        assertThat(withInputs.test(plan).verdict()).isEqualTo(RegressionResult.Verdict.PASSED);
    }

    @Test
    void the_report_counts_and_summarizes_in_the_form_ci_parses() throws Exception {
        write("a.json", ANSWER_42);
        write("a.expected.json", "{\"final_answer\": 42}");
        write("b.json", ANSWER_42);
        write("b.expected.json", "{\"final_answer\": 1}");
        write("c.json", ANSWER_42);
        RegressionReport report =
                regression.testAll(List.of(dir.resolve("a.json"), dir.resolve("b.json"), dir.resolve("c.json")));
        assertThat(report.summary()).isEqualTo("1 passed, 1 failed, 1 skipped");
        assertThat(report.allPassed()).isFalse();
        RegressionReport clean = regression.testAll(List.of(dir.resolve("a.json")));
        assertThat(clean.summary()).isEqualTo("1 passed, 0 failed");
        assertThat(clean.allPassed()).isTrue();
    }

    @Test
    void update_creates_a_missing_expectation_from_the_run() throws Exception {
        Path plan = write("a.json", ANSWER_42);
        RegressionUpdate update = regression.update(plan);
        assertThat(update.change()).isEqualTo(RegressionUpdate.Change.CREATED);
        assertThat(update.line()).isEqualTo("CREATED " + plan);
        assertThat(Files.readString(dir.resolve("a.expected.json")))
                .isEqualTo("{\n  \"final_answer\" : 42,\n  \"status\" : \"succeeded\"\n}\n");
        assertThat(regression.test(plan).verdict()).isEqualTo(RegressionResult.Verdict.PASSED);
    }

    @Test
    void update_rewrites_an_expectation_the_plan_no_longer_meets() throws Exception {
        Path plan = write("a.json", ANSWER_42);
        write("a.expected.json", "{\"final_answer\": 41}");
        assertThat(regression.update(plan).change()).isEqualTo(RegressionUpdate.Change.UPDATED);
        assertThat(Expectation.read(dir.resolve("a.expected.json")).finalAnswer())
                .isEqualTo(IntNode.valueOf(42));
    }

    @Test
    void update_leaves_an_expectation_that_is_still_met_untouched() throws Exception {
        Path plan = write(
                "d.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${1 / 0}\"}}]");
        String handWritten = "{\"final_answer\": null, \"status\": \"failed\", \"error\": \"by zero\"}";
        write("d.expected.json", handWritten);
        assertThat(regression.update(plan).change()).isEqualTo(RegressionUpdate.Change.UNCHANGED);
        assertThat(Files.readString(dir.resolve("d.expected.json"))).isEqualTo(handWritten);
    }

    @Test
    void update_snapshots_a_failure_with_its_whole_error() throws Exception {
        Path plan = write(
                "d.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${1 / 0}\"}}]");
        regression.update(plan);
        Expectation written = Expectation.read(dir.resolve("d.expected.json"));
        assertThat(written.status()).isEqualTo(RunStatus.FAILED);
        assertThat(written.error()).startsWith("seq_no 0 (assign): ").containsIgnoringCase("division by zero");
    }
}
