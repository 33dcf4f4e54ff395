package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.llm.testing.FakeOpenAiServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PlannerToolTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final PlannerTool planner = new PlannerTool(
            LlmConfig.fromEnvironment(Map.of("OPENAI_BASE_URL", server.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "2"))
                    .orElseThrow());

    @AfterEach
    void stopServer() {
        server.close();
    }

    /** What a call reported; each piece it saw releases one permit of {@link #delivered}. */
    private static final class Seen implements CallEvents {
        final List<String> pieces = new ArrayList<>();
        final java.util.concurrent.Semaphore delivered = new java.util.concurrent.Semaphore(0);
        final List<TokenCount> tokens = new ArrayList<>();
        int streams;

        @Override
        public synchronized void tokens(TokenCount spent) {
            tokens.add(spent);
        }

        @Override
        public synchronized void streamStarted() {
            streams++;
        }

        @Override
        public synchronized void chunk(String text) {
            pieces.add(text);
            delivered.release();
        }
    }

    private static JsonNode params(String json) throws Exception {
        return MAPPER.readTree(json);
    }

    @Test
    void streams_each_piece_to_the_call_as_it_arrives_and_reports_the_tokens() throws Exception {
        Seen seen = new Seen();
        // the server sends each piece only once the call saw the one before: the answer ends only if every
        // piece reached the call as it arrived
        server.usage(1200, 340)
                .replyStreamedStepwise(
                        List.of("[{\"seq_no\": 0, ", "\"type\": \"assign\", ", "\"parameters\": {}}]"), seen.delivered);

        JsonNode answer = planner.invoke(
                params("{\"messages\": [{\"role\": \"user\", \"content\": \"plan\"}], \"stream\": true}"),
                CallContext.of(0).withEvents(seen));

        assertThat(answer.asText()).isEqualTo("[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {}}]");
        assertThat(seen.pieces).containsExactly("[{\"seq_no\": 0, ", "\"type\": \"assign\", ", "\"parameters\": {}}]");
        assertThat(seen.streams).isEqualTo(1);
        assertThat(seen.tokens).containsExactly(new TokenCount(1200, 340));
        assertThat(server.requests().get(0).path("stream").asBoolean()).isTrue();
    }

    @Test
    void asks_for_a_strict_json_schema_answer_when_told_to() throws Exception {
        server.reply("{\"plan\": []}");
        Seen seen = new Seen();

        planner.invoke(params("""
                {"messages": [{"role": "system", "content": "You plan."}, {"role": "user", "content": "Goal"}],
                 "response_format": {"type": "json_schema", "json_schema": {"name": "plan", "schema":
                    {"type": "object", "properties": {"plan": {"type": "array", "items": {"type": "string"}}},
                     "required": ["plan"], "additionalProperties": false}}}}"""), CallContext.of(0).withEvents(seen));

        JsonNode request = server.requests().get(0);
        assertThat(request.at("/response_format/type").asText()).isEqualTo("json_schema");
        assertThat(request.at("/response_format/json_schema/strict").asBoolean())
                .isTrue();
        assertThat(request.at("/response_format/json_schema/schema/required/0").asText())
                .isEqualTo("plan");
        assertThat(request.at("/messages/0/role").asText()).isEqualTo("system");
        assertThat(seen.tokens).containsExactly(new TokenCount(10, 5));
    }

    @Test
    void a_stream_that_breaks_off_fails_as_retriable() {
        server.replyStreamedThenDrop(List.of("[{\"seq_no\""), Duration.ZERO);

        assertThatThrownBy(() -> planner.invoke(
                        params("{\"messages\": [{\"role\": \"user\", \"content\": \"plan\"}], " + "\"stream\": true}"),
                        CallContext.of(0)))
                .isInstanceOfSatisfying(
                        ToolException.class,
                        e -> assertThat(e.retriable()).as(e.getMessage()).isTrue());
    }

    @Test
    void a_streamed_answer_that_trickles_a_space_every_fifth_of_a_second_fails_at_the_timeout_of_the_whole_answer() {
        server.replyStreamed(java.util.Collections.nCopies(300, " "), Duration.ofMillis(200)); // a minute
        Throwable failure = assertTimeoutPreemptively(
                Duration.ofSeconds(60), // not hung: no timing target
                () -> catchThrowable(() -> planner.invoke(
                        params("{\"messages\": [{\"role\": \"user\", \"content\": \"plan\"}], \"stream\": true}"),
                        CallContext.of(0))));
        assertThat(failure)
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isTrue())
                .hasMessageContaining("did not end within 2 s");
    }

    @Test
    void llm_generate_reports_the_tokens_of_its_request() throws Exception {
        server.usage(77, 11).reply("ok");
        Seen seen = new Seen();

        new LlmGenerateTool(LlmConfig.fromEnvironment(Map.of("OPENAI_BASE_URL", server.baseUrl()))
                        .orElseThrow())
                .invoke(params("{\"prompt\": \"hi\"}"), CallContext.of(2).withEvents(seen));

        assertThat(seen.tokens).containsExactly(new TokenCount(77, 11));
    }
}
