package dev.planvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.tools.TokenCount;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentTest {

    private final AgentFixture fixture = new AgentFixture();

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        fixture.close();
    }

    /** Two independent retrievals first, then a long reasoning the LLM takes a while to write, then the answer. */
    private static final String RETRIEVE_THEN_THINK = """
            {"plan": [
              {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB indexes"}, "output_vars": ["docs"]}},
              {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "retrieve_knowledge_graph", "tool_params": {"query": "TiDB"}, "output_vars": ["graph"]}},
              {"seq_no": 2, "type": "reasoning", "parameters": {"chain_of_thoughts": "%s"}},
              {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${docs} + ${graph}"}}]}""".formatted("think ".repeat(60));

    @Test
    void a_streamed_plan_starts_its_calls_before_the_stream_ends_and_the_run_uses_their_answers() {
        fixture.server.replyStreamed(RETRIEVE_THEN_THINK, 24, Duration.ofMillis(25));
        PlanVm vm = fixture.vm(fixture.search("vector_search", 50), fixture.search("retrieve_knowledge_graph", 50))
                .build();

        AgentResult result = Agent.builder(vm).format(AnswerFormat.JSON).stream(true)
                .build()
                .ask("TiDB indexes?", Map.of(), RunMode.live());

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("docs about TiDB indexes + docs about TiDB");
        JsonNode answer = result.trace().at("/stream/answers/0");
        double ended = answer.path("ended_ms").asDouble();
        assertThat(answer.path("early_calls")).hasSize(2);
        for (JsonNode call : answer.path("early_calls")) {
            assertThat(call.path("started_ms").asDouble())
                    .as("%s started before the stream ended", call)
                    .isLessThan(ended - 200);
            assertThat(call.path("answered_ms").asDouble()).isLessThan(ended);
        }
        assertThat(answer.at("/instructions/0/arrived_ms").asDouble())
                .isLessThan(answer.at("/early_calls/0/started_ms").asDouble() + 1);
        assertThat(result.trace().at("/stream/early_calls/used").asInt()).isEqualTo(2);
        assertThat(fixture.invocations("vector_search")).isEqualTo(1);
        assertThat(fixture.invocations("retrieve_knowledge_graph")).isEqualTo(1);
    }

    @Test
    void a_streamed_plan_that_ends_invalid_discards_its_early_calls_and_starts_nothing_with_side_effects() {
        String invalid = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send", "tool_params": {"text": "${docs}"}, "output_vars": ["sent"]}},
                  {"seq_no": 2, "type": "jmp", "parameters": {"target_seq": 9}}]}""";
        String valid = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send", "tool_params": {"text": "${docs}"}, "output_vars": ["sent"]}},
                  {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${sent}"}}]}""";
        fixture.server.replyStreamed(invalid, 16, Duration.ofMillis(15)).replyStreamed(valid, 16, Duration.ofMillis(5));
        PlanVm vm =
                fixture.vm(fixture.search("vector_search", 0), fixture.send()).build();

        AgentResult result = Agent.builder(vm).format(AnswerFormat.JSON).stream(true)
                .build()
                .ask("Send TiDB docs", Map.of(), RunMode.live());

        assertThat(result.succeeded()).isTrue();
        JsonNode first = result.trace().at("/stream/answers/0");
        assertThat(first.path("valid").asBoolean()).isFalse();
        assertThat(first.at("/early_calls/0/tool").asText()).isEqualTo("vector_search");
        assertThat(first.path("early_calls")).hasSize(1);
        assertThat(result.trace().at("/stream/answers/1/early_calls")).hasSize(1);
        assertThat(result.trace().at("/stream/early_calls/used").asInt())
                .as("only the valid plan's early call is used")
                .isEqualTo(1);
        assertThat(fixture.invocations("send"))
                .as("the side effect ran once, at its turn in the valid plan's run")
                .isEqualTo(1);
        assertThat(fixture.invocations("vector_search")).isEqualTo(2);
        assertThat(result.rounds()).extracting(PlanRound::purpose).containsExactly("plan", "repair");
    }

    @Test
    void a_streamed_instruction_that_fails_its_own_check_is_listed_with_its_problem_and_starts_nothing() {
        String invalid = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "vector_serch", "tool_params": {"query": "x"}, "output_vars": ["more"]}},
                  {"seq_no": 2, "type": "asign", "parameters": {"final_answer": "${docs}"}}]}""";
        String valid = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
                  {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${docs}"}}]}""";
        fixture.server.replyStreamed(invalid, 16, Duration.ofMillis(2)).replyStreamed(valid, 16, Duration.ofMillis(2));
        PlanVm vm = fixture.vm(fixture.search("vector_search", 0)).build();

        AgentResult result =
                Agent.builder(vm).format(AnswerFormat.JSON).stream(true).build().ask("TiDB", Map.of(), RunMode.live());

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        JsonNode first = result.trace().at("/stream/answers/0");
        assertThat(first.path("valid").asBoolean()).isFalse();
        JsonNode arrived = first.path("instructions");
        assertThat(arrived).hasSize(3);
        assertThat(arrived.get(0).has("problem")).isFalse();
        assertThat(arrived.get(1).path("seq_no").asInt()).isEqualTo(1);
        assertThat(arrived.get(1).path("type").asText()).isEqualTo("calling");
        assertThat(arrived.get(1).path("pointer").asText()).isEqualTo("/plan/1/parameters/tool_name");
        assertThat(arrived.get(1).path("problem").asText()).isEqualTo("tool 'vector_serch' is not available");
        assertThat(arrived.get(2).path("seq_no").asInt()).isEqualTo(2);
        assertThat(arrived.get(2).path("type").asText()).isEqualTo("asign");
        assertThat(arrived.get(2).path("pointer").asText()).startsWith("/plan/2");
        assertThat(arrived.get(2).path("problem").asText()).contains("unknown instruction type 'asign'");
        for (JsonNode instruction : arrived) {
            assertThat(instruction.path("arrived_ms").asDouble())
                    .isBetween(
                            first.path("started_ms").asDouble(),
                            first.path("ended_ms").asDouble());
        }
        assertThat(first.path("early_calls"))
                .as("only the instruction that passed its check started")
                .singleElement()
                .satisfies(call -> assertThat(call.path("seq_no").asInt()).isZero());
        assertThat(result.trace().at("/stream/answers/1/instructions"))
                .hasSize(2)
                .allSatisfy(
                        instruction -> assertThat(instruction.has("problem")).isFalse());
    }

    @Test
    void a_failing_tool_is_replanned_and_the_run_goes_on_as_a_child_run_of_the_stored_one() {
        String plan = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "web_search", "tool_params": {"query": "${docs}"}, "output_vars": ["web"]}},
                  {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${web}"}}]}""";
        String replacement = """
                {"plan": [
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "retrieve_knowledge_graph", "tool_params": {"query": "${docs}"}, "output_vars": ["graph"]}},
                  {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${graph}"}}]}""";
        fixture.server.reply(plan).reply(replacement);
        PlanVm vm = fixture.vm(
                        fixture.search("vector_search", 0),
                        fixture.broken("web_search"),
                        fixture.search("retrieve_knowledge_graph", 0))
                .build();

        AgentResult result;
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            result = Agent.builder(vm)
                    .format(AnswerFormat.JSON)
                    .replans(1)
                    .store(store)
                    .build()
                    .ask("About TiDB", Map.of(), RunMode.live());
            assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
            StoredRun child = store.find(result.runs().get(1).id()).orElseThrow();
            assertThat(child.parentRun()).isEqualTo(result.runs().get(0).id());
            assertThat(child.fromSeq()).isEqualTo(1);
            assertThat(child.steps()).extracting(s -> s.seqNo()).containsExactly(0, 1, 2);
        }
        assertThat(result.finalAnswer().asText()).isEqualTo("docs about docs about TiDB");
        assertThat(fixture.invocations("vector_search"))
                .as("the committed step is not run again")
                .isEqualTo(1);
        assertThat(result.rounds()).extracting(PlanRound::purpose).containsExactly("plan", "replan");
        assertThat(fixture.lastUserMessage(1))
                .contains(
                        "seq_no 0 (calling) docs = docs about TiDB",
                        "Then seq_no 1 failed: tool 'web_search' failed: web_search is down",
                        "Write new instructions for seq_no 1 and after");
        assertThat(result.trace().at("/runs/1/rerun_of").asText())
                .isEqualTo(result.runs().get(0).id());
    }

    @Test
    void a_missing_key_is_replanned_from_the_step_that_read_it() {
        String plan = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "lookup", "tool_params": {"query": "TiDB"}, "output_vars": ["info"]}},
                  {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${info.nokey}"}}]}""";
        String replacement = """
                {"plan": [
                  {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${info.title}"}}]}""";
        fixture.server.reply(plan).reply(replacement);
        PlanVm vm = fixture.vm(fixture.tool(
                        "lookup",
                        false,
                        0,
                        params ->
                                AgentFixture.json("{\"title\": \"TiDB docs\", \"url\": \"https://docs.pingcap.com\"}")))
                .build();

        AgentResult result = Agent.builder(vm)
                .format(AnswerFormat.JSON)
                .replans(1)
                .build()
                .ask("About TiDB", Map.of(), RunMode.live());

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("TiDB docs");
        assertThat(result.runs()).hasSize(2);
        assertThat(result.runs().get(0).result().error().seqNo()).isEqualTo(1);
        assertThat(result.runs().get(0).result().error().message()).contains("has no key 'nokey'");
        assertThat(result.rounds()).extracting(PlanRound::purpose).containsExactly("plan", "replan");
        assertThat(fixture.lastUserMessage(1))
                .contains(
                        "Then seq_no 1 failed: ",
                        "has no key 'nokey' (it has: title, url)",
                        "Write new instructions for seq_no 1 and after");
        assertThat(fixture.invocations("lookup"))
                .as("the committed step is not run again")
                .isEqualTo(1);
    }

    @Test
    void a_condition_the_llm_cannot_answer_is_replanned_from_its_jmp() {
        String plan = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
                  {"seq_no": 1, "type": "jmp", "parameters": {"condition_prompt": "Do ${docs} answer the question?", "jump_if_true": 2, "jump_if_false": 3}},
                  {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${docs}"}},
                  {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "no answer"}}]}""";
        String replacement = """
                {"plan": [
                  {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "from ${docs}"}}]}""";
        fixture.server
                .reply(plan)
                .reply("maybe")
                .reply("{\"result\": \"perhaps\"}")
                .reply("I cannot tell")
                .reply(replacement);
        PlanVm vm = fixture.vm(fixture.search("vector_search", 0))
                .conditionEvaluator(new dev.planvm.llm.LlmConditionEvaluator(fixture.llm))
                .build();

        AgentResult result = Agent.builder(vm)
                .format(AnswerFormat.JSON)
                .replans(1)
                .build()
                .ask("About TiDB", Map.of(), RunMode.live());

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("from docs about TiDB");
        assertThat(result.runs()).hasSize(2);
        assertThat(result.runs().get(0).result().error().seqNo()).isEqualTo(1);
        assertThat(result.runs().get(0).result().error().message())
                .contains("no usable {\"result\", \"explanation\"} answer in 3 tries");
        assertThat(result.rounds()).extracting(PlanRound::purpose).containsExactly("plan", "replan");
        assertThat(fixture.server.requestCount())
                .as("plan, three condition answers, replan")
                .isEqualTo(5);
        assertThat(fixture.lastUserMessage(4))
                .contains(
                        "Then seq_no 1 failed: ",
                        "last answer: \"I cannot tell\"",
                        "Write new instructions for seq_no 1 and after");
        assertThat(fixture.invocations("vector_search"))
                .as("the committed step is not run again")
                .isEqualTo(1);
    }

    @Test
    void the_token_budget_fails_the_agent_run_cleanly_when_a_step_spends_its_last() {
        String plan = """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "Explain TiDB"}, "output_vars": ["final_answer"]}}]}""";
        fixture.server.usage(100, 50).reply(plan).reply("TiDB is a database.").reply(plan);
        PlanVm vm = fixture.vm().maxTokens(250).build();

        AgentResult result = Agent.builder(vm)
                .format(AnswerFormat.JSON)
                .replans(1)
                .build()
                .ask("Explain TiDB", Map.of(), RunMode.live());

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error())
                .isEqualTo("seq_no 0 (calling): tool 'llm_generate' failed: the token budget of 250 tokens "
                        + "(--max-tokens) is spent: 300 tokens (prompt 200, completion 100) used");
        assertThat(result.runs()).as("no re-plan once the budget is spent").hasSize(1);
        assertThat(TokenCount.fromJson(result.trace().path("tokens"))).isEqualTo(new TokenCount(200, 100));
        assertThat(result.trace().at("/planning/tokens/prompt").asInt()).isEqualTo(100);
        assertThat(result.trace()
                        .at("/runs/0/trace/steps/0/inputs/tokens/completion")
                        .asInt())
                .isEqualTo(50);
        assertThat(fixture.server.requestCount()).isEqualTo(2);
    }

    @Test
    void a_token_budget_spent_while_planning_is_a_planning_failure() {
        fixture.server
                .usage(400, 100)
                .reply("{\"plan\": [{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]}");
        PlanVm vm = fixture.vm().maxTokens(300).build();

        AgentResult result = Agent.builder(vm).format(AnswerFormat.JSON).build().ask("One", Map.of(), RunMode.live());

        assertThat(result.runs()).isEmpty();
        assertThat(result.error())
                .isEqualTo("the token budget of 300 tokens (--max-tokens) is spent: 500 tokens (prompt 400, "
                        + "completion 100) used");
    }
}
