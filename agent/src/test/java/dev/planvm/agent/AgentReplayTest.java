package dev.planvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.llm.PlannerTool;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.tools.cassette.Recording;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentReplayTest {

    private final AgentFixture fixture = new AgentFixture();

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        fixture.close();
    }

    private static final String PLAN = """
            {"plan": [
              {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
              {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "web_search", "tool_params": {"query": "${docs}"}, "output_vars": ["web"]}},
              {"seq_no": 2, "type": "reasoning", "parameters": {"chain_of_thoughts": "%s"}},
              {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "Sum up ${web}"}, "output_vars": ["final_answer"]}}]}""".formatted("slowly ".repeat(40));

    private static final String REPLACEMENT = """
            {"plan": [
              {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "more ${docs}"}, "output_vars": ["web"]}},
              {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "Sum up ${web}"}, "output_vars": ["final_answer"]}}]}""";

    @Test
    void a_recorded_agent_run_with_a_stream_a_repair_and_a_replan_replays_offline_to_the_same_end() {
        String typo = PLAN.replace("\"tool_name\": \"llm_generate\"", "\"tool_name\": \"llm_generat\"");
        fixture.server
                .usage(300, 120)
                .replyStreamed(typo, 20, Duration.ofMillis(10))
                .replyStreamed(PLAN, 20, Duration.ofMillis(10))
                .replyStreamed(REPLACEMENT, 20, Duration.ofMillis(10))
                .reply("TiDB in short.");
        PlanVm live = fixture.vm(fixture.search("vector_search", 30), fixture.broken("web_search"))
                .build();
        RunMode.Record record = new RunMode.Record(Recording.keepingFailures());
        AgentResult recorded = Agent.builder(live).stream(true)
                .format(AnswerFormat.JSON)
                .replans(1)
                .build()
                .ask("Sum up TiDB", Map.of(), record);
        assertThat(recorded.succeeded()).as(String.valueOf(recorded.error())).isTrue();
        Path file = dir.resolve("agent.cassette.json");
        record.recording().cassette().write(file);

        Cassette cassette = Cassette.read(file);
        Interaction.ToolInteraction first = (Interaction.ToolInteraction) cassette.interactions().stream()
                .filter(i ->
                        i instanceof Interaction.ToolInteraction t && t.tool().equals(PlannerTool.NAME))
                .findFirst()
                .orElseThrow();
        assertThat(first.chunks()).hasSizeGreaterThan(10);
        assertThat(first.chunks().get(first.chunks().size() - 1).atMs())
                .isGreaterThan(first.chunks().get(0).atMs());
        assertThat(first.tokens()).isEqualTo(new TokenCount(300, 120));

        PlanVm offline = PlanVm.builder().build(); // no LLM, no tools: the cassette answers everything
        AgentResult replayed = Agent.builder(offline).stream(true)
                .format(AnswerFormat.JSON)
                .replans(1)
                .build()
                .ask("Sum up TiDB", Map.of(), RunMode.replay(cassette, true));

        assertThat(replayed.succeeded()).as(String.valueOf(replayed.error())).isTrue();
        assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());
        assertThat(replayed.rounds()).extracting(PlanRound::purpose).containsExactly("plan", "repair", "replan");
        assertThat(replayed.tokens()).isEqualTo(recorded.tokens());
        assertThat(replayed.runs()).hasSize(2);
        JsonNode answer = replayed.trace().at("/stream/answers/1");
        assertThat(answer.at("/early_calls/0/started_ms").asDouble())
                .as("replayed at the recorded pace, the call starts early")
                .isLessThan(answer.path("ended_ms").asDouble());
    }
}
