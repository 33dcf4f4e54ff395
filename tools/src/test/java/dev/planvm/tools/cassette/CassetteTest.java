package dev.planvm.tools.cassette;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.chain.CallChain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassetteTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final String CASSETTE = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "vector_search", "params": {"query": "q", "top_k": 5}, "output": ["first"], "duration_ms": 812},
              {"type": "tool", "tool": "vector_search", "params": {"query": "q", "top_k": 5}, "output": ["second"], "duration_ms": 10},
              {"type": "condition", "prompt": "Is 4 even?", "context": null, "result": true, "explanation": "4 = 2*2", "duration_ms": 640}
            ]}""";

    private static JsonNode replay(CassettePlayer player, Call call) {
        CallInterceptor unreachable = chain -> {
            throw new AssertionError("replay must not call anything real");
        };
        return new CallChain(List.of(player, unreachable), List.of()).execute(call);
    }

    private static Call.ToolCall search(String params) {
        return new Call.ToolCall("vector_search", json(params), CallContext.of(1));
    }

    @Test
    void reads_the_documented_format() {
        Cassette cassette = Cassette.fromJson(json(CASSETTE), "c");
        assertThat(cassette.interactions()).hasSize(3);
        assertThat(cassette.tools()).containsExactly("vector_search");
        assertThat(cassette.hasConditions()).isTrue();
        assertThat(cassette.interactions().get(0).durationMs()).isEqualTo(812);
    }

    @Test
    void writing_and_reading_gives_the_same_cassette(@TempDir Path dir) {
        Cassette cassette = Cassette.fromJson(json(CASSETTE), "c");
        Path file = dir.resolve("sub/c.cassette.json");
        cassette.write(file);
        assertThat(Cassette.read(file)).isEqualTo(cassette);
        assertThat(Cassette.read(file).toJson()).isEqualTo(cassette.toJson());
    }

    @Test
    void a_bad_cassette_is_refused_with_the_file_and_the_reason(@TempDir Path dir) throws Exception {
        Path wrongFormat = dir.resolve("a.json");
        Files.writeString(wrongFormat, "{\"format\": \"other\", \"interactions\": []}");
        assertThatThrownBy(() -> Cassette.read(wrongFormat))
                .isInstanceOf(CassetteException.class)
                .hasMessage(wrongFormat + ": not a cassette: \"format\" must be \"planvm-cassette/1\"");
        Path badItem = dir.resolve("b.json");
        Files.writeString(badItem, "{\"format\": \"planvm-cassette/1\", \"interactions\": [{\"type\": \"tool\"}]}");
        assertThatThrownBy(() -> Cassette.read(badItem))
                .hasMessageContaining("/interactions/0: a tool interaction needs");
        assertThatThrownBy(() -> Cassette.read(dir.resolve("missing.json"))).hasMessageContaining("cassette not found");
    }

    @Test
    void a_recorded_failure_is_replayed_with_its_message_and_kind() {
        Cassette cassette = Cassette.fromJson(json("""
                        {"format": "planvm-cassette/1", "interactions": [
                          {"type": "tool", "tool": "vector_search", "params": {"query": "slow"}, "error": "timed out after 50 ms",
                           "error_kind": "timeout"},
                          {"type": "tool", "tool": "vector_search", "params": {"query": "bad"}, "error": "HTTP 500"}]}"""), "c");
        CassettePlayer player = new CassettePlayer(cassette, false);

        assertThatThrownBy(() -> replay(player, search("{\"query\": \"slow\"}")))
                .isInstanceOfSatisfying(ToolException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ToolException.Kind.TIMEOUT);
                    assertThat(e.retriable()).isFalse(); // the recording is of the last attempt
                })
                .hasMessage("timed out after 50 ms");
        assertThatThrownBy(() -> replay(player, search("{\"query\": \"bad\"}")))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.kind()).isEqualTo(ToolException.Kind.TOOL_ERROR))
                .hasMessage("HTTP 500");
        JsonNode written = cassette.toJson();
        assertThat(written.at("/interactions/0/error_kind").asText()).isEqualTo("timeout");
        assertThat(written.at("/interactions/1").has("error_kind")).isFalse(); // tool_error is the default
        assertThat(Cassette.fromJson(written, "c")).isEqualTo(cassette);
    }

    @Test
    void an_unknown_error_kind_is_refused_with_where_it_is() {
        assertThatThrownBy(() -> Cassette.fromJson(json("""
                                {"format": "planvm-cassette/1", "interactions": [
                                  {"type": "tool", "tool": "t", "error": "x", "error_kind": "oops"}]}"""), "c"))
                .isInstanceOf(CassetteException.class)
                .hasMessageContaining(
                        "/interactions/0/error_kind must be \"tool_error\", \"timeout\" or \"denied\", not \"oops\"");
    }

    @Test
    void the_recorder_keeps_a_failure_s_kind() {
        Recording recording = Recording.keepingFailures();
        CassetteRecorder recorder = new CassetteRecorder(recording, Redactor.none());
        CallInterceptor slow = chain -> {
            throw ToolException.timeout("timed out after 50 ms");
        };
        assertThatThrownBy(
                        () -> new CallChain(List.of(recorder, slow), List.of()).execute(search("{\"query\": \"q\"}")))
                .isInstanceOf(ToolException.class);

        Interaction.ToolInteraction kept = (Interaction.ToolInteraction)
                recording.cassette().interactions().get(0);
        assertThat(kept.error()).isEqualTo("timed out after 50 ms");
        assertThat(kept.errorKind()).isEqualTo(ToolException.Kind.TIMEOUT);
    }

    @Test
    void repeated_matches_are_served_in_recorded_order() {
        CassettePlayer player = new CassettePlayer(Cassette.fromJson(json(CASSETTE), "c"), false);
        assertThat(replay(player, search("{\"query\": \"q\", \"top_k\": 5}"))
                        .get(0)
                        .asText())
                .isEqualTo("first");
        assertThat(replay(player, search("{\"top_k\": 5, \"query\": \"q\"}"))
                        .get(0)
                        .asText())
                .isEqualTo("second");
    }

    @Test
    void numbers_match_by_value() {
        CassettePlayer player = new CassettePlayer(Cassette.fromJson(json(CASSETTE), "c"), false);
        assertThat(replay(player, search("{\"query\": \"q\", \"top_k\": 5.0}"))
                        .get(0)
                        .asText())
                .isEqualTo("first");
    }

    @Test
    void conditions_match_by_prompt_and_context() {
        CassettePlayer player = new CassettePlayer(Cassette.fromJson(json(CASSETTE), "c"), false);
        JsonNode answer =
                replay(player, new Call.ConditionCall("Is 4 even?", NullNode.getInstance(), CallContext.of(2)));
        assertThat(answer.get("result").asBoolean()).isTrue();
        assertThat(answer.get("explanation").asText()).isEqualTo("4 = 2*2");
        assertThatThrownBy(() -> replay(
                        player, new Call.ConditionCall("Is 4 even?", TextNode.valueOf("ctx"), CallContext.of(2))))
                .hasMessageContaining("the cassette has no");
    }

    @Test
    void an_unmatched_call_fails_showing_the_closest_recording_and_a_diff() {
        CassettePlayer player = new CassettePlayer(Cassette.fromJson(json(CASSETTE), "c"), false);
        assertThatThrownBy(() -> replay(player, search("{\"query\": \"other\", \"top_k\": 5}")))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessageContaining("the cassette has no recorded interaction for tool 'vector_search'")
                .hasMessageContaining(
                        "closest recorded: {\"tool\":\"vector_search\",\"params\":{\"query\":\"q\",\"top_k\":5}}")
                .hasMessageContaining("/params/query: recorded \"q\", got \"other\"");
    }

    @Test
    void a_call_made_more_often_than_recorded_says_so() {
        CassettePlayer player = new CassettePlayer(Cassette.fromJson(json(CASSETTE), "c"), false);
        String params = "{\"query\": \"q\", \"top_k\": 5}";
        replay(player, search(params));
        replay(player, search(params));
        assertThatThrownBy(() -> replay(player, search(params)))
                .hasMessageContaining("its 2 recordings were already served");
    }

    @Test
    void replay_timing_waits_the_recorded_duration() {
        String slow = """
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "t", "params": {}, "output": 1, "duration_ms": 40000},
                  {"type": "tool", "tool": "t", "params": {}, "output": 2, "duration_ms": 0}]}""";
        List<Duration> waits = new ArrayList<>();
        CassettePlayer timed =
                new CassettePlayer(Cassette.fromJson(json(slow), "c"), true, Redactor.none(), Set.of(), waits::add);
        long before = System.nanoTime();
        replay(timed, new Call.ToolCall("t", json("{}"), CallContext.of(0)));
        Duration around = Duration.ofNanos(System.nanoTime() - before);
        replay(timed, new Call.ToolCall("t", json("{}"), CallContext.of(1)));
        // the recorded 40 s less the moment the replay took to get there (no wall-clock bound); nothing for 0 ms
        assertThat(waits)
                .singleElement()
                .satisfies(wait -> assertThat(wait)
                        .isGreaterThanOrEqualTo(Duration.ofSeconds(40).minus(around))
                        .isLessThanOrEqualTo(Duration.ofSeconds(40)));
    }

    @Test
    void the_recorder_records_plan_level_values_and_outputs_in_answer_order() {
        Recording recording = new Recording();
        CassetteRecorder recorder = new CassetteRecorder(recording, Redactor.none());
        AtomicInteger n = new AtomicInteger();
        CallInterceptor tool = chain -> chain.call() instanceof Call.ToolCall
                ? TextNode.valueOf("out" + n.incrementAndGet())
                : json("{\"result\": false, \"explanation\": \"no\"}");
        CallChain chain = new CallChain(List.of(recorder, tool), List.of());
        chain.execute(search("{\"query\": \"a\"}"));
        chain.execute(new Call.ConditionCall("Done?", TextNode.valueOf("ctx"), CallContext.of(3)));
        Cassette recorded = recording.cassette();
        assertThat(recorded.interactions()).hasSize(2);
        assertThat(recorded.interactions().get(0)).isInstanceOfSatisfying(Interaction.ToolInteraction.class, t -> {
            assertThat(t.params()).isEqualTo(json("{\"query\": \"a\"}"));
            assertThat(t.output().asText()).isEqualTo("out1");
        });
        assertThat(recorded.interactions().get(1)).isInstanceOfSatisfying(Interaction.ConditionInteraction.class, c -> {
            assertThat(c.context().asText()).isEqualTo("ctx");
            assertThat(c.result()).isFalse();
        });
    }
}
