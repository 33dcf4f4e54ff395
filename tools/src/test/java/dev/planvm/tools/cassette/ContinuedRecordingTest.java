package dev.planvm.tools.cassette;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A recording continued by a later session of the same run ({@link Recording#continuing}): a plan tool's
 * call whose child waited is completed in place, with the child's calls from both sessions (issue 23).
 */
class ContinuedRecordingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode params(String json) throws Exception {
        return JSON.readTree(json);
    }

    private static Interaction.ToolInteraction call(String tool, String output) {
        return new Interaction.ToolInteraction(tool, JSON.createObjectNode(), TextNode.valueOf(output), 1);
    }

    private static Interaction.ToolInteraction waiting(String tool, JsonNode params, List<Interaction> children) {
        return new Interaction.ToolInteraction(
                tool,
                params,
                NullNode.getInstance(),
                5,
                List.of(),
                null,
                "child run abc waits for input",
                null,
                true,
                children,
                true);
    }

    private static Interaction.ToolInteraction answered(String tool, JsonNode params, List<Interaction> children) {
        return new Interaction.ToolInteraction(
                tool, params, TextNode.valueOf("done"), 7, List.of(), null, null, null, true, children);
    }

    private static List<String> tools(List<Interaction> interactions) {
        return interactions.stream()
                .map(i -> ((Interaction.ToolInteraction) i).tool())
                .toList();
    }

    @Test
    void a_waiting_call_is_completed_with_the_child_calls_of_both_sessions_at_every_depth() throws Exception {
        JsonNode pickParams = params("{\"n\": 1}");
        JsonNode innerParams = params("{}");
        Cassette earlier = new Cassette(List.of(
                call("before", "b"),
                waiting(
                        "pick",
                        pickParams,
                        List.of(call("count", "0"), waiting("inner", innerParams, List.of(call("look", "l")))))));

        Recording recording = Recording.continuing(earlier);
        recording.add(answered(
                "pick",
                pickParams,
                List.of(answered("inner", innerParams, List.of(call("human_input", "blue"))), call("mark", "1"))));
        recording.add(call("after", "a"));

        List<Interaction> interactions = recording.cassette().interactions();
        assertThat(tools(interactions)).containsExactly("before", "pick", "after");
        Interaction.ToolInteraction pick = (Interaction.ToolInteraction) interactions.get(1);
        assertThat(pick.waiting()).isFalse();
        assertThat(pick.output().asText()).isEqualTo("done");
        assertThat(tools(pick.children())).containsExactly("count", "inner", "mark");
        Interaction.ToolInteraction inner =
                (Interaction.ToolInteraction) pick.children().get(1);
        assertThat(inner.waiting()).isFalse();
        assertThat(tools(inner.children())).containsExactly("look", "human_input");
    }

    @Test
    void a_call_of_other_params_does_not_complete_a_waiting_one() throws Exception {
        Cassette earlier = new Cassette(List.of(waiting("pick", params("{\"n\": 1}"), List.of(call("count", "0")))));

        Recording recording = Recording.continuing(earlier);
        recording.add(answered("pick", params("{\"n\": 2}"), List.of(call("mark", "1"))));

        List<Interaction> interactions = recording.cassette().interactions();
        assertThat(interactions).hasSize(2);
        assertThat(((Interaction.ToolInteraction) interactions.get(0)).waiting())
                .isTrue();
    }

    @Test
    void a_continued_recording_keeps_the_earlier_clock() {
        Cassette.RecordedClock first =
                new Cassette.RecordedClock(Instant.parse("2026-11-26T08:00:00Z"), ZoneId.of("UTC"));
        Recording recording = Recording.continuing(new Cassette(List.of()).withClock(first));

        recording.clock(new Cassette.RecordedClock(Instant.parse("2026-11-27T08:00:00Z"), ZoneId.of("UTC")));

        assertThat(recording.cassette().clock()).isEqualTo(first);
    }

    @Test
    void a_waiting_call_is_written_and_read_back_and_a_malformed_one_is_refused() throws Exception {
        Cassette cassette = new Cassette(List.of(waiting("pick", params("{}"), List.of(call("count", "0")))));

        JsonNode written = cassette.toJson();
        assertThat(written.at("/interactions/0/waiting").asBoolean()).isTrue();
        assertThat(written.at("/interactions/0/error").asText()).isEqualTo("child run abc waits for input");
        Cassette read = Cassette.fromJson(written, "c.json");
        assertThat(((Interaction.ToolInteraction) read.interactions().get(0)).waiting())
                .isTrue();

        JsonNode answeredButWaiting = JSON.readTree("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "pick", "params": {}, "output": 1, "child_run": true, "waiting": true}]}""");
        assertThatThrownBy(() -> Cassette.fromJson(answeredButWaiting, "c.json"))
                .isInstanceOf(CassetteException.class)
                .hasMessageContaining("c.json: /interactions/0: \"waiting\": true marks a plan tool's call");
    }
}
