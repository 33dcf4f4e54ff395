package dev.planvm.vm.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpectationTest {

    @TempDir
    Path dir;

    private static PlanOutcome outcome(RunStatus status, JsonNode answer, String error) {
        return new PlanOutcome(Path.of("plans/x.json"), status, answer, error, 3, 1, List.of(), null);
    }

    private static PlanOutcome succeeded(JsonNode answer) {
        return outcome(RunStatus.SUCCEEDED, answer, null);
    }

    private Expectation read(String json) throws Exception {
        Path file = dir.resolve("x.expected.json");
        Files.writeString(file, json);
        return Expectation.read(file);
    }

    @Test
    void an_equal_outcome_has_no_differences() throws Exception {
        Expectation expectation = read("{\"final_answer\": {\"a\": [1, \"two\"]}, \"status\": \"succeeded\"}");
        assertThat(expectation.compare(succeeded(new ObjectMapper().readTree("{\"a\": [1, \"two\"]}"))))
                .isEmpty();
    }

    @Test
    void status_defaults_to_succeeded() throws Exception {
        assertThat(read("{\"final_answer\": 1}").status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void numbers_compare_by_value() throws Exception {
        assertThat(read("{\"final_answer\": 5}").matches(succeeded(DoubleNode.valueOf(5.0))))
                .isTrue();
        assertThat(read("{\"final_answer\": 5}").matches(succeeded(DoubleNode.valueOf(5.5))))
                .isFalse();
    }

    @Test
    void a_status_mismatch_names_both_statuses_and_the_error() throws Exception {
        Expectation expectation = read("{\"final_answer\": null}");
        PlanOutcome failed = outcome(RunStatus.FAILED, null, "seq_no 3 (calling): tool 'x' failed: boom");
        assertThat(expectation.compare(failed))
                .containsExactly(
                        "status: expected \"succeeded\", got \"failed\" (seq_no 3 (calling): tool 'x' failed: boom)");
    }

    @Test
    void a_different_answer_is_shown_at_its_json_pointer() throws Exception {
        Expectation expectation = read("{\"final_answer\": {\"items\": [1]}}");
        assertThat(expectation.compare(succeeded(new ObjectMapper().readTree("{\"items\": [2]}"))))
                .containsExactly("/final_answer/items/0: expected 1, got 2");
    }

    @Test
    void the_error_must_contain_the_expected_text() throws Exception {
        Expectation expectation =
                read("{\"final_answer\": null, \"status\": \"failed\", \"error\": \"has no key 'email'\"}");
        assertThat(expectation.compare(outcome(
                        RunStatus.FAILED,
                        null,
                        "seq_no 1 (assign): ${user.email}: 'user' has no key 'email' (it has: name)")))
                .isEmpty();
        assertThat(expectation.compare(outcome(RunStatus.FAILED, null, "seq_no 1 (assign): division by zero")))
                .containsExactly(
                        "error: expected a message containing \"has no key 'email'\", got \"seq_no 1 (assign): division by zero\"");
    }

    @Test
    void an_expected_error_on_a_run_that_succeeded_reports_both_differences() throws Exception {
        Expectation expectation = read("{\"final_answer\": 1, \"status\": \"failed\", \"error\": \"boom\"}");
        assertThat(expectation.compare(succeeded(IntNode.valueOf(1))))
                .containsExactly(
                        "status: expected \"failed\", got \"succeeded\"",
                        "error: expected a message containing \"boom\", got none");
    }

    @Test
    void an_unknown_key_is_refused_with_a_suggestion() {
        assertThatThrownBy(() -> read("{\"final_anwser\": 1}"))
                .isInstanceOf(ExpectationException.class)
                .hasMessage(
                        dir.resolve("x.expected.json") + ": unknown key 'final_anwser': did you mean 'final_answer'?"
                                + " (an expectation has final_answer, status, error)");
        assertThatThrownBy(() -> read("{\"final_answer\": 1, \"comment\": \"x\"}"))
                .hasMessageEndingWith(": unknown key 'comment' (an expectation has final_answer, status, error)");
    }

    @Test
    void wrong_values_and_documents_are_refused_with_a_reason() {
        assertThatThrownBy(() -> read("{\"final_answer\": 1, \"status\": \"ok\"}"))
                .hasMessageEndingWith(
                        "'status' must be one of \"succeeded\", \"completed_with_failures\", \"failed\", \"invalid\","
                                + " \"rejected\", not \"ok\"");
        assertThatThrownBy(() -> read("{\"status\": \"failed\"}")).hasMessageContaining("missing key 'final_answer'");
        assertThatThrownBy(() -> read("{\"final_answer\": 1, \"error\": \"x\"}"))
                .hasMessageEndingWith("'error' is checked only with a status other than \"succeeded\"");
        assertThatThrownBy(() -> read("{\"final_answer\": 1, \"status\": \"failed\", \"error\": 3}"))
                .hasMessageEndingWith("'error' must be text, got 3");
        assertThatThrownBy(() -> read("[1]")).hasMessageContaining("an expectation is a JSON object");
        assertThatThrownBy(() -> read("")).hasMessageContaining("the file is empty");
        assertThatThrownBy(() -> read("{\"final_answer\": 1, \"final_answer\": 2}"))
                .hasMessageContaining("Duplicate field 'final_answer'");
        assertThatThrownBy(() -> read("{\"final_answer\": 1} {\"final_answer\": 2}"))
                .hasMessageContaining("malformed JSON at line 1");
        assertThatThrownBy(() -> read("{\"final_answer\": ,}"))
                .hasMessageContaining("malformed JSON at line 1, column 18");
        assertThatThrownBy(() -> Expectation.read(dir.resolve("none.expected.json")))
                .hasMessageEndingWith(": file not found");
    }

    @Test
    void a_snapshot_is_written_pretty_and_read_back_equal() throws Exception {
        Path file = dir.resolve("y.expected.json");
        Expectation.snapshot(succeeded(IntNode.valueOf(42))).write(file);
        assertThat(Files.readString(file)).isEqualTo("{\n  \"final_answer\" : 42,\n  \"status\" : \"succeeded\"\n}\n");
        assertThat(Expectation.read(file).matches(succeeded(IntNode.valueOf(42))))
                .isTrue();
    }

    @Test
    void a_snapshot_of_a_failure_keeps_the_whole_error_with_the_plan_path_reduced_to_its_file_name() {
        PlanOutcome invalid =
                outcome(RunStatus.INVALID, null, "plans/x.json: seq_no 0 at /0/type: unknown; plans/x.json: more");
        Expectation snapshot = Expectation.snapshot(invalid);
        assertThat(snapshot.toJson().toString())
                .isEqualTo(
                        "{\"final_answer\":null,\"status\":\"invalid\",\"error\":\"x.json: seq_no 0 at /0/type: unknown; x.json: more\"}");
        PlanOutcome elsewhere = new PlanOutcome(
                Path.of("/tmp/copy/x.json"),
                RunStatus.INVALID,
                null,
                "/tmp/copy/x.json: seq_no 0 at /0/type: unknown; /tmp/copy/x.json: more",
                1,
                0,
                List.of(),
                null);
        assertThat(snapshot.matches(elsewhere)).isTrue();
    }

    @Test
    void an_error_is_only_allowed_with_a_status_other_than_succeeded() {
        assertThatThrownBy(() -> new Expectation(TextNode.valueOf("x"), RunStatus.SUCCEEDED, "boom"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
