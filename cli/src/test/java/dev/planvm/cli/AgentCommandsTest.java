package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.llm.testing.FakeOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code planvm plan}, {@code planvm ask} and the token figures of {@code run} and {@code show}, against a loopback LLM. */
class AgentCommandsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private FakeOpenAiServer server;
    private Map<String, String> environment;

    @BeforeEach
    void startServer() {
        server = FakeOpenAiServer.start();
        environment = Map.of(
                "OPENAI_BASE_URL",
                server.baseUrl(),
                "PLANVM_LLM_TIMEOUT_SECONDS",
                "5",
                "PLANVM_STORE",
                dir.resolve("runs.db").toString());
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private static final String GREETING = """
            {"plan": [
              {"seq_no": 0, "type": "reasoning", "parameters": {"chain_of_thoughts": "Ask the LLM, then answer with what it says."}},
              {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "Greet ${name}"}, "output_vars": ["greeting"]}},
              {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${greeting}"}}]}""";

    private static final String TYPO =
            GREETING.replace("\"tool_name\": \"llm_generate\"", "\"tool_name\": \"llm_generat\"");

    @Test
    void plan_prints_a_repaired_plan_and_says_how_many_answers_it_took() throws Exception {
        server.reply(TYPO).reply(GREETING);

        CliRun run =
                CliRun.withEnvironment(environment, "plan", "Greet the user", "--format", "json", "--var", "name=Ann");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(MAPPER.readTree(run.out())).isEqualTo(MAPPER.readTree(GREETING));
        assertThat(run.err())
                .contains("plan: a valid plan after 2 answers (1 repair), json format, planner tokens: 30 tokens");
        assertThat(server.requests().get(0).at("/messages/1/content").asText())
                .contains("These variables are set before " + "the first instruction: name.");
    }

    @Test
    void plan_writes_the_plan_and_the_planning_trace_to_files() throws Exception {
        server.reply(GREETING);
        Path out = dir.resolve("greet.json");
        Path trace = dir.resolve("plan.trace.json");

        CliRun run = CliRun.withEnvironment(
                environment, "plan", "Greet", "--format", "json", "-o", out.toString(), "--trace", trace.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEmpty();
        assertThat(CliRun.of("validate", out.toString()).exitCode()).isZero();
        JsonNode document = MAPPER.readTree(trace.toFile());
        assertThat(document.path("format").asText()).isEqualTo("planvm-agent-trace/1");
        assertThat(document.at("/planning/rounds/0/valid").asBoolean()).isTrue();
    }

    @Test
    void plan_fails_listing_the_last_problems_when_the_plan_stays_invalid() {
        server.reply(TYPO).reply(TYPO);

        CliRun run = CliRun.withEnvironment(environment, "plan", "Greet", "--format", "json", "--repair-rounds", "1");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .contains("plan: no valid plan after 2 answers (1 repair); the last answer's problems:\n"
                        + "  plan: seq_no 1 at /plan/1/parameters/tool_name: tool 'llm_generat' is not available; did you mean "
                        + "'llm_generate'?");
    }

    @Test
    void plan_and_ask_without_an_llm_say_what_to_set() {
        CliRun plan = CliRun.of("plan", "Greet");
        CliRun ask = CliRun.of("ask", "Greet", "--no-store");

        assertThat(plan.exitCode()).isEqualTo(2);
        assertThat(plan.err()).startsWith("plan: planning needs an LLM: no LLM is configured: set OPENAI_API_KEY");
        assertThat(ask.exitCode()).isEqualTo(2);
        assertThat(ask.err()).contains("(or --replay a recorded cassette)");
    }

    @Test
    void ask_streams_records_and_then_replays_the_whole_agent_run_offline() throws Exception {
        server.replyStreamed(GREETING, 16, Duration.ofMillis(5)).reply("Hello, Ann!");
        Path cassette = dir.resolve("ask.cassette.json");
        Path trace = dir.resolve("ask.trace.json");

        CliRun live = CliRun.withEnvironment(
                environment,
                "ask",
                "Greet Ann",
                "--stream",
                "--format",
                "json",
                "--var",
                "name=Ann",
                "--record",
                cassette.toString(),
                "--trace",
                trace.toString());

        assertThat(live.exitCode()).as(live.err()).isZero();
        assertThat(live.out()).isEqualTo("Hello, Ann!\n");
        JsonNode document = MAPPER.readTree(trace.toFile());
        assertThat(document.at("/stream/answers/0/instructions")).hasSize(3);
        assertThat(document.at("/runs/0/trace/steps/1/inputs/tokens/prompt").asInt())
                .isEqualTo(10);
        assertThat(document.at("/tokens/prompt").asInt()).isEqualTo(20);
        JsonNode planner = null;
        for (JsonNode interaction : MAPPER.readTree(cassette.toFile()).path("interactions")) {
            if (interaction.path("tool").asText().equals("planvm:planner")) {
                planner = interaction;
            }
        }
        assertThat(planner).isNotNull();
        assertThat(planner.path("chunks").size()).isGreaterThan(5);
        assertThat(document.at("/stream/early_calls/used").asInt())
                .as("llm_generate started while the plan streamed")
                .isEqualTo(1);

        CliRun replayed = CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()),
                "ask",
                "Greet Ann",
                "--stream",
                "--format",
                "json",
                "--var",
                "name=Ann",
                "--replay",
                cassette.toString());

        assertThat(replayed.exitCode()).as(replayed.err()).isZero();
        assertThat(replayed.out()).isEqualTo("Hello, Ann!\n");
        assertThat(server.requestCount()).as("the replay called nothing").isEqualTo(2);
    }

    @Test
    void ask_replans_a_failed_step_into_a_child_run_that_show_prints_with_its_lineage_and_tokens() throws Exception {
        String fallback = """
                {"plan": [{"seq_no": 1, "type": "assign", "parameters": {"greeting": "Hi, ${name}"}},
                          {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${greeting}"}}]}""";
        server.reply(GREETING)
                .replyStatus(400, "{\"error\": {\"message\": \"content policy\"}}")
                .reply(fallback);

        CliRun run = CliRun.withEnvironment(
                environment, "ask", "Greet Ann", "--format", "json", "--var", "name=Ann", "--replan", "1");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Hi, Ann\n");
        assertThat(run.err()).contains("ask: re-planned from seq_no 1: run ");
        String child = run.err().replaceAll("(?s).*re-planned from seq_no 1: run (\\w+) continues run (\\w+).*", "$1");
        String parent = run.err().replaceAll("(?s).*re-planned from seq_no 1: run (\\w+) continues run (\\w+).*", "$2");
        assertThat(server.requests().get(2).at("/messages/1/content").asText())
                .contains(
                        "Then seq_no 1 failed: tool 'llm_generate' failed: the LLM server answered HTTP 400: content policy");

        JsonNode shown = MAPPER.readTree(
                CliRun.withEnvironment(environment, "show", child).out());
        assertThat(shown.path("rerun_of").asText()).isEqualTo(parent);
        assertThat(shown.path("from_seq").asInt()).isEqualTo(1);
        assertThat(shown.path("status").asText()).isEqualTo("succeeded");
        JsonNode failedRun = MAPPER.readTree(
                CliRun.withEnvironment(environment, "show", parent).out());
        assertThat(failedRun.path("status").asText()).isEqualTo("failed");
    }

    /** Hands the name back (use) instead of answering. */
    private static final String LOOK_FIRST = """
            {"plan": [
              {"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${name}", "use": true}}]}""";

    private static final String ANSWER = """
            {"plan": [
              {"seq_no": 0, "type": "assign", "parameters": {"final_answer": "Hello, ${handed_back}!"}}]}""";

    @Test
    void ask_plans_again_with_the_value_a_plan_handed_back_with_use() {
        server.reply(LOOK_FIRST).reply(ANSWER);

        CliRun run = CliRun.withEnvironment(
                environment, "ask", "Greet Ann", "--format", "json", "--var", "name=Ann", "--no-store");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Hello, Ann!\n");
        assertThat(run.err())
                .contains("ask: a valid plan after 2 answers (1 round after use)")
                .contains("ask: the plan ended in use: its value went back to the planner");
    }

    @Test
    void ask_fails_when_a_plan_hands_a_value_back_and_no_use_round_is_left() {
        server.reply(LOOK_FIRST);

        CliRun run = CliRun.withEnvironment(
                environment, "ask", "Greet Ann", "--format", "json", "--var", "name=Ann", "--use-rounds", "0");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .contains("ask: the plan ends in use (it hands its value back), and --use-rounds 0 allows no planning"
                        + " round after use");
    }

    @Test
    void ask_fails_cleanly_once_the_token_budget_is_spent() {
        server.usage(100, 50).reply(GREETING).reply("Hello!");

        CliRun run = CliRun.withEnvironment(
                environment,
                "ask",
                "Greet Ann",
                "--format",
                "json",
                "--var",
                "name=Ann",
                "--max-tokens",
                "200",
                "--replan",
                "2");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .contains("ask: seq_no 1 (calling): tool 'llm_generate' failed: the token budget of 200 tokens "
                        + "(--max-tokens) is spent: 300 tokens (prompt 200, completion 100) used");
        assertThat(run.err()).doesNotContain("re-planned");
    }

    @Test
    void run_prints_tokens_in_its_trace_and_show_prints_the_run_totals() throws Exception {
        server.usage(120, 30).reply("Hello, Bo!");
        Path plan = dir.resolve("greet.json");
        Files.writeString(plan, GREETING);
        Path trace = dir.resolve("run.trace.json");

        CliRun run = CliRun.withEnvironment(
                environment, "run", plan.toString(), "--var", "name=Bo", "--trace", trace.toString(), "--verbose");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(MAPPER.readTree(trace.toFile()).path("tokens"))
                .isEqualTo(MAPPER.readTree("{\"prompt\": 120, \"completion\": 30}"));
        String id = run.err().replaceAll("(?s).*run (\\w+) is stored in.*", "$1");
        JsonNode shown =
                MAPPER.readTree(CliRun.withEnvironment(environment, "show", id).out());
        assertThat(shown.path("tokens")).isEqualTo(MAPPER.readTree("{\"prompt\": 120, \"completion\": 30}"));
        assertThat(shown.at("/steps/1/inputs/tokens/completion").asInt()).isEqualTo(30);
    }

    @Test
    void test_pins_a_recorded_agent_run_and_reports_when_it_changes() throws Exception {
        server.replyStreamed(GREETING, 16, Duration.ZERO).reply("Hello, Ann!");
        Path tests = Files.createDirectories(dir.resolve("asks"));
        CliRun recorded = CliRun.withEnvironment(
                environment,
                "ask",
                "Greet Ann",
                "--stream",
                "--format",
                "json",
                "--var",
                "name=Ann",
                "--record",
                tests.resolve("greet.cassette.json").toString(),
                "--no-store");
        assertThat(recorded.exitCode()).as(recorded.err()).isZero();
        Files.writeString(tests.resolve("greet.json"), """
                {"format": "planvm-ask/1", "goal": "Greet Ann", "vars": {"name": "Ann"}, "stream": true, "answer_format": "json"}""");

        CliRun update = CliRun.of("test", tests.toString(), "--update");
        CliRun passing = CliRun.of("test", tests.toString());
        Files.writeString(tests.resolve("greet.expected.json"), "{\"final_answer\": \"Hello, Bo!\"}");
        CliRun failing = CliRun.of("test", tests.toString());

        assertThat(update.out()).contains("CREATED");
        assertThat(passing.exitCode()).as(passing.out() + passing.err()).isZero();
        assertThat(passing.out()).contains("PASS " + tests.resolve("greet.json"), "1 passed, 0 failed");
        assertThat(failing.exitCode()).isEqualTo(1);
        assertThat(failing.out())
                .contains("FAIL " + tests.resolve("greet.json"), "expected \"Hello, Bo!\", got \"Hello, Ann!\"");
        assertThat(CliRun.of("validate", tests.toString()).err())
                .as("validate leaves agent tests out")
                .contains("no plan file in");
    }

    @Test
    void schema_strict_llm_prints_the_derived_strict_schema() throws Exception {
        CliRun run = CliRun.of("schema", "--strict-llm");

        assertThat(run.exitCode()).isZero();
        JsonNode schema = MAPPER.readTree(run.out());
        assertThat(schema.path("type").asText()).isEqualTo("object");
        assertThat(schema.path("additionalProperties").asBoolean(true)).isFalse();
        assertThat(schema.at("/required/0").asText()).isEqualTo("plan");
    }
}
