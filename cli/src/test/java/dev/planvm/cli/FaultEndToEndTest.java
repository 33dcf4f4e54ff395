package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm run} and {@code batch} against a faulty OpenAI-compatible server on 127.0.0.1:
 * rate limits with {@code Retry-After}, bursts of server errors, dropped connections, slow answers,
 * and tool permissions. Backoffs are shortened with {@code --retry-backoff 10}.
 */
class FaultEndToEndTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String BOOM = "{\"error\": {\"message\": \"boom\"}}";
    private static final String GENERATE = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate",
               "tool_params": {"prompt": "Greet Ann"}, "output_vars": "greeting"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${greeting}"}}]""";

    @TempDir
    Path dir;

    private FakeOpenAiServer server;
    private Map<String, String> environment;

    @BeforeEach
    void startServer() {
        server = FakeOpenAiServer.start();
        environment = Map.of("OPENAI_BASE_URL", server.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "5");
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

    private CliRun run(String... options) throws Exception {
        String[] args = new String[options.length + 6];
        args[0] = "run";
        args[1] = plan(GENERATE);
        args[2] = "--trace";
        args[3] = dir.resolve("trace.json").toString();
        args[4] = "--retry-backoff";
        args[5] = "10";
        System.arraycopy(options, 0, args, 6, options.length);
        return CliRun.withEnvironment(environment, args);
    }

    private JsonNode attempts(int step) throws Exception {
        return MAPPER.readTree(dir.resolve("trace.json").toFile())
                .path("steps")
                .get(step)
                .path("inputs")
                .path("attempts");
    }

    @Test
    void a_rate_limit_with_retry_after_is_waited_for_and_recorded_in_the_trace() throws Exception {
        server.replyStatus(429, "{\"error\": {\"message\": \"slow down\"}}", Map.of("Retry-After", "1"))
                .reply("Hello, Ann!");
        CliRun run = run();
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Hello, Ann!\n");
        JsonNode attempts = attempts(0);
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0).path("attempt").asInt()).isEqualTo(1);
        assertThat(attempts.get(0).path("error").asText()).isEqualTo("the LLM server answered HTTP 429: slow down");
        assertThat(attempts.get(0).path("waited_ms").asLong()).isEqualTo(1000);
        assertThat(attempts.get(0).path("duration_ms").isNumber()).isTrue();
    }

    @Test
    void a_burst_of_server_errors_is_retried_until_the_server_answers() throws Exception {
        server.replyStatus(500, BOOM)
                .replyStatus(503, BOOM)
                .replyStatus(500, BOOM)
                .reply("back");
        CliRun run = run("--retries", "4");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("back\n");
        assertThat(server.requestCount()).isEqualTo(4);
        assertThat(attempts(0)).hasSize(3);
        assertThat(attempts(0).get(1).path("error").asText()).isEqualTo("the LLM server answered HTTP 503: boom");
    }

    @Test
    void a_burst_longer_than_the_retry_limit_fails_naming_the_seq_no_and_the_attempts() throws Exception {
        for (int i = 0; i < 4; i++) {
            server.replyStatus(500, BOOM);
        }
        CliRun run = run("--retries", "3");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .contains("seq_no 0 (calling)")
                .contains("HTTP 500: boom (after 3 attempts)")
                .doesNotContain("\tat ");
        assertThat(server.requestCount()).isEqualTo(3);
        JsonNode attempts = attempts(0);
        assertThat(attempts).hasSize(3);
        assertThat(attempts.get(2).has("waited_ms"))
                .as("no wait after the last attempt")
                .isFalse();
    }

    @Test
    void a_tool_can_have_fewer_attempts_than_the_rest() throws Exception {
        server.replyStatus(500, BOOM).reply("unused");
        CliRun run = run("--retries", "5", "--tool-retries", "llm_generate=1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("HTTP 500: boom").doesNotContain("attempts");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void a_server_that_closes_the_connection_is_asked_again() throws Exception {
        server.closeConnection().reply("reconnected");
        CliRun run = run();
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("reconnected\n");
        assertThat(attempts(0).get(0).path("error").asText()).contains("closed the connection");
    }

    @Test
    void a_server_slower_than_the_call_timeout_is_abandoned_and_the_retry_answers() throws Exception {
        server.replyAfter(Duration.ofSeconds(4), "too late").reply("in time");
        CliRun run = run("--call-timeout", "0.5");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out())
                .as("the retry answered: the slow reply was not waited for")
                .isEqualTo("in time\n");
        // the LLM client's own timeout and the chain's fire at the same limit: which one speaks depends on load
        assertThat(attempts(0).get(0).path("error").asText()).matches("the (LLM )?call timed out after 0\\.5 s");
    }

    @Test
    void the_call_timeout_beats_the_llms_own_default_for_llm_generate() throws Exception {
        environment = Map.of("OPENAI_BASE_URL", server.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "1");
        server.replyAfter(Duration.ofMillis(2000), "late but in time");
        CliRun run = run("--call-timeout", "6", "--retries", "1");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("late but in time\n");
    }

    @Test
    void the_llms_own_default_holds_when_no_timeout_is_given() throws Exception {
        environment = Map.of("OPENAI_BASE_URL", server.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "1");
        server.replyAfter(Duration.ofMillis(2000), "too late");
        CliRun run = run("--retries", "1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("timed out after 1 s");
    }

    @Test
    void a_tool_timeout_overrides_the_call_timeout() throws Exception {
        server.replyAfter(Duration.ofSeconds(4), "too late").reply("in time");
        CliRun run = run("--call-timeout", "60", "--tool-timeout", "llm_generate=0.3");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(attempts(0).get(0).path("error").asText()).matches("the (LLM )?call timed out after 0\\.3 s");
    }

    @Test
    void a_condition_prompt_is_retried_and_its_attempts_recorded_on_the_jmp_step() throws Exception {
        server.replyStatus(502, BOOM).reply("{\"result\": true, \"explanation\": \"yes\"}");
        Path trace = dir.resolve("trace.json");
        CliRun run = CliRun.withEnvironment(
                environment, "run", plan("""
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition_prompt": "Is 4 even?", "jump_if_true": 2}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "odd"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "even"}}]"""), "--retry-backoff", "10", "--trace", trace.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("even\n");
        assertThat(attempts(0)).hasSize(1);
    }

    @Test
    void a_denied_tool_is_refused_before_anything_runs() throws Exception {
        CliRun run = CliRun.withEnvironment(environment, "run", plan(GENERATE), "--deny-tools", "web_*,llm_*");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .contains("plan.json: seq_no 0: tool 'llm_generate' is denied by the tool policy (deny rule 'llm_*')");
        assertThat(run.out()).isEmpty();
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void an_allow_list_with_a_bang_allows_the_rest_of_its_matches() throws Exception {
        server.reply("Hello!");
        CliRun allowed =
                CliRun.withEnvironment(environment, "run", plan(GENERATE), "--allow-tools", "llm_*,!llm_embed");
        assertThat(allowed.exitCode()).as(allowed.err()).isZero();
        CliRun denied = CliRun.withEnvironment(
                environment, "run", plan(GENERATE), "--allow-tools", "l*", "--allow-tools", "!llm_gen*");
        assertThat(denied.exitCode()).isEqualTo(2);
        assertThat(denied.err()).contains("(deny rule '!llm_gen*')");
        CliRun outside = CliRun.withEnvironment(environment, "run", plan(GENERATE), "--allow-tools", "vector_search");
        assertThat(outside.err()).contains("no allow rule matches it; allowed: vector_search");
    }

    @Test
    void a_denied_tool_is_refused_in_a_dry_run_too() throws Exception {
        CliRun run = CliRun.of("run", plan(GENERATE), "--dry-run", "--deny-tools", "llm_generate");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("is denied by the tool policy");
    }

    @Test
    void a_batch_rejects_the_plans_that_call_a_denied_tool() throws Exception {
        String denied = plan(GENERATE);
        Path other = dir.resolve("other.json");
        Files.writeString(other, "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun run = CliRun.withEnvironment(environment, "batch", denied, other.toString(), "--deny-tools", "llm_*");
        assertThat(run.exitCode()).isEqualTo(1);
        String[] lines = run.out().split("\n");
        assertThat(MAPPER.readTree(lines[0]).path("status").asText()).isEqualTo("rejected");
        assertThat(MAPPER.readTree(lines[0]).path("error").asText()).contains("denied by the tool policy");
        assertThat(MAPPER.readTree(lines[1]).path("status").asText()).isEqualTo("succeeded");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void bad_policy_options_are_usage_errors() throws Exception {
        String plan = plan(GENERATE);
        assertThat(CliRun.of("run", plan, "--retries", "0").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("run", plan, "--retry-backoff", "-1").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("run", plan, "--call-timeout", "soon").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("run", plan, "--call-timeout", "0").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("run", plan, "--tool-timeout", "llm_generate=-1").exitCode())
                .isEqualTo(2);
        CliRun bang = CliRun.of("run", plan, "--deny-tools", "!web");
        assertThat(bang.exitCode()).isEqualTo(2);
        assertThat(bang.err()).contains("deny rule '!web' starts with '!'");
    }

    @Test
    void attempts_of_a_call_started_ahead_of_its_turn_land_on_its_own_step() {
        AtomicInteger flakyCalls = new AtomicInteger();
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("steady", "", (p, c) -> TextNode.valueOf("s")))
                .tool(Tool.of("flaky", "", (p, c) -> {
                    if (flakyCalls.incrementAndGet() <= 2) {
                        throw ToolException.transientFailure("HTTP 503", null);
                    }
                    return TextNode.valueOf("f");
                }))
                .retrySleeper(wait -> {})
                .build();
        RunResult result = vm.run(vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "steady", "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "flaky", "output_vars": "b"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a}${b}"}}]""", "p.json").planOrThrow(), Map.of());
        assertThat(result.finalAnswer().asText()).isEqualTo("sf");
        JsonNode steps = result.trace().path("steps");
        assertThat(steps.get(0).path("inputs").has("attempts")).isFalse();
        assertThat(steps.get(1).path("inputs").path("attempts")).hasSize(2);
    }
}
