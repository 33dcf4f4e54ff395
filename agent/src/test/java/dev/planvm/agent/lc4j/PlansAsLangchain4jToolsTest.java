package dev.planvm.agent.lc4j;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.planvm.agent.Langchain4jPlanTools;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An agent built with langchain4j's AiServices writes a plan and runs it through {@code run_plan}. */
class PlansAsLangchain4jToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    interface Assistant {
        String chat(String message);
    }

    private static final String HEADLINE = """
            {"name": "headline", "description": "A headline for a topic and an audience",
             "inputs": {"type": "object", "required": ["topic"],
                        "properties": {"topic": {"type": "string", "description": "what it is about"},
                                       "audience": {"type": "string", "default": "engineers"}}},
             "output": {"type": "string"},
             "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper",
                        "tool_params": {"text": "${topic}"}, "output_vars": "loud"}},
                      {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${loud + ' for ' + audience}"}}]}""";

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final PlanVm vm = PlanVm.builder()
            .tool(Tool.of(
                    "upper",
                    "Upper-cases params.text",
                    (params, call) ->
                            TextNode.valueOf(params.path("text").asText().toUpperCase())))
            .planTool(new PlanLoader().load(HEADLINE, "headline.json").planOrThrow())
            .build();
    private final Assistant assistant = AiServices.builder(Assistant.class)
            .chatModel(OpenAiChatModel.builder()
                    .baseUrl(server.baseUrl())
                    .apiKey("test")
                    .modelName("fake-model")
                    .maxRetries(0)
                    .build())
            .tools(Langchain4jPlanTools.of(vm))
            .build();

    @AfterEach
    void stop() {
        server.close();
    }

    private static String runPlanArguments(String plan, String inputs) throws Exception {
        return JSON.writeValueAsString(JSON.createObjectNode().put("plan", plan).set("inputs", JSON.readTree(inputs)));
    }

    private static final String PLAN =
            "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"upper\","
                    + " \"tool_params\": {\"text\": \"Hello, ${name}\"}, \"output_vars\": \"final_answer\"}}]";

    /** The content of the tool result messages the model was sent with request {@code index}. */
    private List<String> toolResults(int index) {
        JsonNode messages = server.requests().get(index).path("messages");
        return StreamSupport.stream(messages.spliterator(), false)
                .filter(m -> m.path("role").asText().equals("tool"))
                .map(m -> m.path("content").asText())
                .toList();
    }

    @Test
    void the_model_sees_run_plan_with_its_params_schema() {
        server.reply("Nothing to do.");

        assistant.chat("hi");

        JsonNode tool = server.requests().get(0).path("tools").get(0).path("function");
        assertThat(tool.path("name").asText()).isEqualTo("run_plan");
        assertThat(tool.path("description").asText()).contains("upper");
        assertThat(tool.at("/parameters/properties/plan/type").asText()).isEqualTo("string");
        assertThat(tool.at("/parameters/required/0").asText()).isEqualTo("plan");
    }

    @Test
    void a_plan_the_model_writes_runs_and_its_final_answer_goes_back_to_the_model() throws Exception {
        server.replyToolCall("run_plan", runPlanArguments(PLAN, "{\"name\": \"Ann\"}"))
                .reply("The plan says HELLO, ANN.");

        String answer = assistant.chat("Greet Ann loudly, with a plan");

        assertThat(answer).isEqualTo("The plan says HELLO, ANN.");
        assertThat(server.requestCount()).isEqualTo(2);
        assertThat(toolResults(1)).containsExactly("HELLO, ANN");
    }

    @Test
    void an_invalid_plan_is_answered_with_its_located_errors_so_the_model_can_fix_it() throws Exception {
        String broken = PLAN.replace("\"calling\"", "\"caling\"");
        server.replyToolCall("run_plan", runPlanArguments(broken, "{\"name\": \"Ann\"}"))
                .replyToolCall("run_plan", runPlanArguments(PLAN, "{\"name\": \"Bo\"}"))
                .reply("HELLO, BO");

        String answer = assistant.chat("Greet Bo loudly, with a plan");

        assertThat(answer).isEqualTo("HELLO, BO");
        assertThat(toolResults(1))
                .singleElement()
                .asString()
                .startsWith("error: the plan is invalid:")
                .contains("seq_no 0")
                .contains("'caling'");
        assertThat(toolResults(2)).last().isEqualTo("HELLO, BO");
    }

    @Test
    void a_plan_that_fails_is_answered_with_the_failing_step() throws Exception {
        String unknownInput = PLAN.replace("${name}", "${name.first}");
        server.replyToolCall("run_plan", runPlanArguments(unknownInput, "{\"name\": \"Ann\"}"))
                .reply("It failed.");

        assistant.chat("Greet Ann");

        assertThat(toolResults(1)).singleElement().asString().startsWith("error: the plan failed: seq_no 0 (calling)");
    }

    @Test
    void each_plan_tool_is_a_tool_of_the_model_with_its_inputs_schema() {
        server.reply("Nothing to do.");

        assistant.chat("hi");

        JsonNode tool = server.requests().get(0).path("tools").get(1).path("function");
        assertThat(tool.path("name").asText()).isEqualTo("headline");
        assertThat(tool.path("description").asText()).isEqualTo("A headline for a topic and an audience");
        assertThat(tool.at("/parameters/properties/topic/description").asText()).isEqualTo("what it is about");
        assertThat(tool.at("/parameters/properties/audience/default").asText()).isEqualTo("engineers");
        assertThat(tool.at("/parameters/required/0").asText()).isEqualTo("topic");
    }

    @Test
    void the_model_calls_a_plan_tool_and_gets_its_final_answer() {
        server.replyToolCall("headline", "{\"topic\": \"tidb\"}").reply("Done.");

        assistant.chat("A headline about TiDB");

        assertThat(toolResults(1)).containsExactly("TIDB for engineers");
    }

    @Test
    void params_that_do_not_fit_a_plan_tools_inputs_are_answered_with_why() {
        server.replyToolCall("headline", "{\"audience\": \"cats\"}").reply("Sorry.");

        assistant.chat("A headline for cats");

        assertThat(toolResults(1))
                .singleElement()
                .asString()
                .startsWith("error: ")
                .contains("topic");
    }

    @Test
    void arguments_nested_past_the_bound_are_refused_in_one_sentence_not_parsed() {
        String deep = "{\"plan\": " + "[".repeat(1_001) + "]".repeat(1_001) + "}";
        server.replyToolCall("run_plan", deep).replyToolCall("headline", deep).reply("Too deep.");

        assistant.chat("Run a deep plan");

        assertThat(toolResults(1))
                .containsExactly("error: the arguments of run_plan are too large to read:"
                        + " Document nesting depth (1001) exceeds the maximum allowed (1000)");
        assertThat(toolResults(2))
                .last()
                .isEqualTo("error: the arguments of headline are too large to read:"
                        + " Document nesting depth (1001) exceeds the maximum allowed (1000)");
    }

    @Test
    void arguments_of_more_tokens_than_the_bound_are_refused_in_one_sentence_not_parsed() {
        String large = "{\"plan\": [" + "0,".repeat(2_000_000) + "0]}";
        server.replyToolCall("run_plan", large).reply("Too large.");

        assistant.chat("Run a large plan");

        assertThat(toolResults(1))
                .singleElement()
                .asString()
                .startsWith("error: the arguments of run_plan are too large to read: Token count (")
                .endsWith("exceeds the maximum allowed (2000000)")
                .doesNotContain("StreamReadConstraints");
    }
}
