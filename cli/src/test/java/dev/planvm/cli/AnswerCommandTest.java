package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in {@code human_input} tool on the command line: a stored run waits for the answer (exit 3,
 * not on a terminal) and says how to give it; {@code planvm answer} refuses a wrong answer (exit 2, the
 * run keeps waiting) and a right one continues the run.
 */
class AnswerCommandTest {

    @TempDir
    Path dir;

    private Path plan;

    @BeforeEach
    void write() throws Exception {
        plan = Files.writeString(dir.resolve("ask.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "How many copies?", "schema": {"type": "integer", "minimum": 1}}, "output_vars": "n"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Colour?", "choices": ["red", "blue"]}, "output_vars": "colour"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${n * 2} ${colour}"}}]""");
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    @Test
    void a_run_waits_for_input_with_exit_3_and_answer_refuses_a_wrong_answer_then_continues_with_a_right_one()
            throws Exception {
        CliRun waiting = planvm("run", plan.toString());
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        assertThat(waiting.out()).isEmpty();
        assertThat(waiting.err()).contains(plan + ": seq_no 0 (calling): waiting for input: How many copies?");
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for input.*", "$1")
                .trim();
        assertThat(waiting.err())
                .contains("run " + id + " waits for input: planvm answer " + id
                        + " --value JSON (or --text STRING) answers it and continues the run; fitting the schema "
                        + "{\"type\":\"integer\",\"minimum\":1}");
        JsonNode shown = new ObjectMapper().readTree(planvm("show", id).out());
        assertThat(shown.at("/pending/tool").asText()).isEqualTo("human_input");
        assertThat(shown.at("/pending/call_id").asText()).isEqualTo("step-1");
        assertThat(shown.at("/pending/params/prompt").asText()).isEqualTo("How many copies?");

        CliRun resumed = planvm("resume", id);
        assertThat(resumed.exitCode()).isEqualTo(2);
        assertThat(resumed.err()).contains("waits for input at seq_no 0 (How many copies?)");

        CliRun wrong = planvm("answer", id, "--value", "0");
        assertThat(wrong.exitCode()).as(wrong.err()).isEqualTo(2);
        assertThat(wrong.err()).contains("keeps waiting: the answer 0 does not fit the schema");
        CliRun notJson = planvm("answer", id, "--value", "three");
        assertThat(notJson.exitCode()).isEqualTo(2);
        assertThat(notJson.err()).contains("--value is not JSON");
        assertThat(new ObjectMapper()
                        .readTree(planvm("show", id).out())
                        .path("status")
                        .asText())
                .isEqualTo("waiting");

        CliRun next = planvm("answer", id, "--value", "3");
        assertThat(next.exitCode()).as(next.err()).isEqualTo(3);
        assertThat(next.err()).contains("waiting for input: Colour?").contains("; one of: red, blue");
        CliRun notAChoice = planvm("answer", id, "--text", "green");
        assertThat(notAChoice.exitCode()).isEqualTo(2);
        assertThat(notAChoice.err()).contains("the answer \"green\" is not one of the choices red, blue");
        CliRun done = planvm("answer", id, "--text", "blue");
        assertThat(done.exitCode()).as(done.err()).isZero();
        assertThat(done.out()).isEqualTo("6 blue\n");

        CliRun again = planvm("answer", id, "--text", "red");
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("does not wait for input (it is succeeded)");
    }

    @Test
    void without_a_store_and_a_terminal_the_step_fails_saying_what_it_needs() {
        CliRun run = planvm("run", "--no-store", plan.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("human_input needs a durable run or a terminal");
    }

    @Test
    void a_replay_gives_the_recorded_answers_without_asking_anybody() throws Exception {
        Path cassette = Files.writeString(dir.resolve("ask.cassette.json"), """
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "human_input", "params": {"prompt": "How many copies?", "schema": {"type": "integer", "minimum": 1}}, "output": 4, "duration_ms": 60000},
                  {"type": "tool", "tool": "human_input", "params": {"prompt": "Colour?", "choices": ["red", "blue"]}, "output": "red", "duration_ms": 5000}]}""");
        CliRun replayed = planvm("run", plan.toString(), "--replay", cassette.toString());
        assertThat(replayed.exitCode()).as(replayed.err()).isZero();
        assertThat(replayed.out()).isEqualTo("8 red\n");
    }
}
