package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.llm.testing.FakeOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm run} with an LLM: the real langchain4j HTTP path against an OpenAI-compatible
 * server on 127.0.0.1 started by the test.
 */
class LlmEndToEndTest {

    @TempDir
    Path dir;

    private FakeOpenAiServer server;
    private Map<String, String> environment;

    @BeforeEach
    void startServer() {
        server = FakeOpenAiServer.start();
        // generous: a loaded CI machine must not turn an answer into a timeout and a retry
        environment = Map.of("OPENAI_BASE_URL", server.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "10");
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private String plan(String json) throws Exception {
        Path file = dir.resolve("plan.json");
        Files.writeString(file, json);
        return file.toString();
    }

    private static final String GENERATE_ONE = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate",
               "tool_params": {"prompt": "Greet ${name}", "context": null}, "output_vars": ["greeting"]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${greeting}"}}]""";

    private static final String CONDITION = """
            [{"seq_no": 0, "type": "assign", "parameters": {"n": 4}},
             {"seq_no": 1, "type": "jmp", "parameters": {"condition_prompt": "Is ${n} even?", "context": null,
               "jump_if_true": 2, "jump_if_false": 4}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "even"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 5}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "odd"}},
             {"seq_no": 5, "type": "reasoning", "parameters": {"chain_of_thoughts": "done"}}]""";

    @Test
    void llm_generate_with_one_output_name_stores_the_answer() throws Exception {
        server.reply("Hello, Ann!");
        CliRun run = CliRun.withEnvironment(environment, "run", plan(GENERATE_ONE), "--var", "name=Ann");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Hello, Ann!\n");
        assertThat(server.requests().get(0).toString()).contains("Greet Ann");
    }

    @Test
    void llm_generate_with_two_output_names_asks_for_json_and_reads_both_keys() throws Exception {
        server.reply("{\"summary\": \"short\", \"insights\": [\"first\"]}");
        CliRun run = CliRun.withEnvironment(environment, "run", plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "llm_generate",
                   "params": {"prompt": "Analyze", "context": "${data}"}, "output_vars": ["summary", "insights"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${summary}/${insights[0]}"}}]"""), "--var", "data={\"q\": 3}");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("short/first\n");
        JsonNode request = server.requests().get(0);
        assertThat(request.at("/response_format/type").asText()).isEqualTo("json_object");
        assertThat(request.toString()).contains("summary").contains("insights").contains("{\\\"q\\\":3}");
    }

    @Test
    void conditions_are_read_clean_in_prose_and_in_a_fence() throws Exception {
        for (String answer : List.of(
                "{\"result\": true, \"explanation\": \"4 = 2*2\"}",
                "Sure! {\"result\": true, \"explanation\": \"4 = 2*2\"} Hope that helps.",
                "```json\n{\"result\": true, \"explanation\": \"4 = 2*2\"}\n```")) {
            server.reply(answer);
            CliRun run = CliRun.withEnvironment(environment, "run", plan(CONDITION));
            assertThat(run.exitCode()).as(answer + ": " + run.err()).isZero();
            assertThat(run.out()).as(answer).isEqualTo("even\n");
        }
        assertThat(server.requests().get(0).toString()).contains("Is 4 even?");
    }

    @Test
    void a_malformed_condition_answer_is_asked_again_with_the_problem_stated() throws Exception {
        server.reply("I think it is even.").reply("{\"result\": false, \"explanation\": \"checked again\"}");
        Path trace = dir.resolve("trace.json");
        CliRun run = CliRun.withEnvironment(environment, "run", plan(CONDITION), "--trace", trace.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("odd\n");
        assertThat(server.requestCount()).isEqualTo(2);
        assertThat(server.requests().get(1).toString())
                .contains("I think it is even.")
                .contains("no JSON object");
        JsonNode jmp = new ObjectMapper().readTree(trace.toFile()).path("steps").get(1);
        assertThat(jmp.at("/jump/explanation").asText()).isEqualTo("checked again");
    }

    @Test
    void a_condition_malformed_three_times_fails_the_step_quoting_the_answer() throws Exception {
        server.reply("maybe").reply("perhaps").reply("{\"result\": \"unsure\"}");
        CliRun run = CliRun.withEnvironment(environment, "run", plan(CONDITION));
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("seq_no 1 (jmp)").contains("in 3 tries").contains("unsure");
        assertThat(run.err()).doesNotContain("\tat ");
        assertThat(server.requestCount()).isEqualTo(3);
    }

    @Test
    void server_errors_and_slow_answers_are_retried_until_one_succeeds() throws Exception {
        server.replyStatus(500, "{\"error\": {\"message\": \"overloaded\"}}")
                .replyStatus(429, "{\"error\": {\"message\": \"slow down\"}}", Map.of("Retry-After", "1"))
                .reply("Hello after retries");
        CliRun run = CliRun.withEnvironment(environment, "run", plan(GENERATE_ONE), "--var", "name=Ann");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Hello after retries\n");
        assertThat(server.requestCount()).isEqualTo(3);

        server.replyAfter(Duration.ofMillis(9000), "too late").reply("in time");
        Map<String, String> shortTimeout =
                Map.of("OPENAI_BASE_URL", server.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "3");
        CliRun slow = CliRun.withEnvironment(shortTimeout, "run", plan(GENERATE_ONE), "--var", "name=Ann");
        assertThat(slow.exitCode()).as(slow.err()).isZero();
        assertThat(slow.out()).isEqualTo("in time\n");
    }

    @Test
    void a_server_that_keeps_failing_ends_in_a_clean_failure_naming_the_seq_no() throws Exception {
        for (int i = 0; i < 3; i++) {
            server.replyStatus(500, "{\"error\": {\"message\": \"down\"}}");
        }
        CliRun run = CliRun.withEnvironment(environment, "run", plan(GENERATE_ONE), "--var", "name=Ann");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .startsWith(dir.resolve("plan.json") + ": seq_no 0 (calling): tool 'llm_generate' failed: ")
                .contains("HTTP 500")
                .contains("(after 3 attempts)")
                .doesNotContain("\tat ");
        assertThat(server.requestCount()).isEqualTo(3);
    }

    @Test
    void an_unauthorized_key_fails_at_once_without_retrying() throws Exception {
        server.replyStatus(401, "{\"error\": {\"message\": \"invalid api key\"}}");
        CliRun run = CliRun.withEnvironment(
                Map.of("OPENAI_BASE_URL", server.baseUrl(), "OPENAI_API_KEY", "sk-secret-123"),
                "run",
                plan(GENERATE_ONE),
                "--var",
                "name=Ann");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("HTTP 401").doesNotContain("sk-secret-123");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_run_recorded_against_the_server_replays_with_the_server_stopped() throws Exception {
        server.reply("Hello, Ann!").reply("{\"result\": true, \"explanation\": \"a greeting\"}");
        String plan = plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate",
                   "tool_params": {"prompt": "Greet ${name}"}, "output_vars": "greeting"}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition_prompt": "Is this a greeting?", "context": "${greeting}",
                   "jump_if_true": 3}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "no"}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${greeting} (checked)"}}]""");
        Path cassette = dir.resolve("run.cassette.json");
        Path recordedTrace = dir.resolve("recorded.json");
        CliRun recorded = CliRun.withEnvironment(
                environment,
                "run",
                plan,
                "--var",
                "name=Ann",
                "--record",
                cassette.toString(),
                "--trace",
                recordedTrace.toString());
        assertThat(recorded.exitCode()).as(recorded.err()).isZero();
        server.close();

        Path replayedTrace = dir.resolve("replayed.json");
        CliRun replayed = CliRun.withEnvironment(
                Map.of(),
                "run",
                plan,
                "--var",
                "name=Ann",
                "--replay",
                cassette.toString(),
                "--trace",
                replayedTrace.toString());

        assertThat(replayed.exitCode()).as(replayed.err()).isZero();
        assertThat(replayed.out()).isEqualTo(recorded.out()).isEqualTo("Hello, Ann! (checked)\n");
        assertThat(shape(replayedTrace)).isEqualTo(shape(recordedTrace));
        JsonNode interactions = new ObjectMapper().readTree(cassette.toFile()).path("interactions");
        assertThat(interactions).hasSize(2);
        assertThat(interactions.get(0).path("params").path("prompt").asText()).isEqualTo("Greet Ann");
        assertThat(interactions.get(1).path("context").asText()).isEqualTo("Hello, Ann!");
        assertThat(Files.readString(cassette)).doesNotContain("not-needed");
    }

    private static List<String> shape(Path trace) throws Exception {
        List<String> shape = new ArrayList<>();
        for (JsonNode step : new ObjectMapper().readTree(trace.toFile()).path("steps")) {
            shape.add(step.path("seq_no").asInt() + " " + step.path("type").asText() + " " + step.path("writes")
                    + " -> " + step.at("/jump/to").asText("next"));
        }
        return shape;
    }
}
