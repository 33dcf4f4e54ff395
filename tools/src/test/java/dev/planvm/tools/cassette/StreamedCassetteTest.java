package dev.planvm.tools.cassette;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.chain.CallChain;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a cassette keeps besides answers: streamed pieces with their timing, tokens, and (when asked) failures. */
class StreamedCassetteTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** What a call was told, with when (ms since the call started). */
    private static final class Seen implements CallEvents {
        final long start = System.nanoTime();
        final List<String> pieces = new ArrayList<>();
        final List<Long> at = new ArrayList<>();
        final List<TokenCount> tokens = new ArrayList<>();
        int streams;

        @Override
        public synchronized void tokens(TokenCount spent) {
            tokens.add(spent);
        }

        @Override
        public synchronized void streamStarted() {
            streams++;
            pieces.clear();
        }

        @Override
        public synchronized void chunk(String text) {
            pieces.add(text);
            at.add((System.nanoTime() - start) / 1_000_000);
        }
    }

    private static Call.ToolCall planner(CallEvents events) {
        return new Call.ToolCall(
                "planvm:planner",
                MAPPER.createObjectNode().put("goal", "g"),
                CallContext.of(-1).withEvents(events));
    }

    /** A streaming tool: an attempt that breaks off, then one that streams "[1," and "2]" 60 ms apart. */
    private static CallInterceptor streamingTool() {
        int[] attempt = {0};
        return chain -> {
            CallEvents events = chain.call().context().events();
            events.streamStarted();
            events.chunk("[9");
            if (attempt[0]++ == 0) {
                throw ToolException.transientFailure("broke off", null);
            }
            events.streamStarted();
            events.chunk("[1,");
            sleep(60);
            events.chunk("2]");
            events.tokens(new TokenCount(40, 3));
            return TextNode.valueOf("[1,2]");
        };
    }

    private static CallInterceptor retryOnce() {
        return chain -> {
            try {
                return chain.proceed(chain.call());
            } catch (ToolException e) {
                return chain.proceed(chain.call());
            }
        };
    }

    @Test
    void a_recording_keeps_the_answered_attempts_pieces_with_their_timing_and_every_attempts_tokens() {
        Recording recording = new Recording();
        Seen live = new Seen();
        new CallChain(
                        List.of(new CassetteRecorder(recording, Redactor.none()), retryOnce(), streamingTool()),
                        List.of())
                .execute(planner(live));

        Interaction.ToolInteraction recorded = (Interaction.ToolInteraction)
                recording.cassette().interactions().get(0);
        assertThat(recorded.chunks()).extracting(Interaction.Chunk::text).containsExactly("[1,", "2]");
        assertThat(recorded.chunks().get(1).atMs() - recorded.chunks().get(0).atMs())
                .isGreaterThanOrEqualTo(55);
        assertThat(recorded.tokens()).isEqualTo(new TokenCount(40, 3));
        assertThat(live.pieces).containsExactly("[1,", "2]");

        Cassette read = Cassette.fromJson(recording.cassette().toJson(), "c.json");
        assertThat(read.interactions().get(0)).isEqualTo(recorded);
    }

    @Test
    void replay_reports_the_pieces_at_their_recorded_pace_with_timing_and_at_once_without() {
        Cassette cassette = Cassette.fromJson(json("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "planvm:planner", "params": {"goal": "g"}, "output": "[1,2]", "duration_ms": 30000,
                   "chunks": [{"text": "[1,", "at_ms": 0}, {"text": "2]", "at_ms": 25000}], "tokens": {"prompt": 40, "completion": 3}}]}"""), "c.json");
        Seen timed = new Seen();
        Seen fast = new Seen();
        List<Duration> timedWaits = new ArrayList<>();
        List<Duration> fastWaits = new ArrayList<>();

        long before = System.nanoTime();
        JsonNode answer =
                replay(new CassettePlayer(cassette, true, Redactor.none(), Set.of(), timedWaits::add), planner(timed));
        Duration around = Duration.ofNanos(System.nanoTime() - before);
        replay(new CassettePlayer(cassette, false, Redactor.none(), Set.of(), fastWaits::add), planner(fast));

        assertThat(answer.asText()).isEqualTo("[1,2]");
        assertThat(timed.pieces).containsExactly("[1,", "2]");
        // the second piece at its recorded 25 s, the answer at 30 s (measured from the call's start: the
        // moment the replay itself took is not waited again; the sleeper records, it does not sleep)
        assertThat(timedWaits).hasSize(2);
        assertThat(timedWaits.get(0))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(25).minus(around))
                .isLessThanOrEqualTo(Duration.ofSeconds(25));
        assertThat(timedWaits.get(1))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(30).minus(around))
                .isLessThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(timed.tokens).containsExactly(new TokenCount(40, 3));
        assertThat(fastWaits).as("without timing nothing waits").isEmpty();
        assertThat(fast.pieces).containsExactly("[1,", "2]");
        assertThat(fast.streams).isEqualTo(1);
    }

    @Test
    void a_recording_that_keeps_failures_replays_the_failure_with_the_same_words() {
        Recording recording = Recording.keepingFailures();
        CallInterceptor down = chain -> {
            throw ToolException.permanent("web_search is down");
        };
        Call call = new Call.ToolCall("web_search", MAPPER.createObjectNode().put("q", "x"), CallContext.of(2));
        assertThatThrownBy(() -> new CallChain(
                                List.of(new CassetteRecorder(recording, Redactor.none()), down), List.of())
                        .execute(call))
                .hasMessage("web_search is down");
        assertThat(new Recording().keepsFailures()).isFalse();

        Cassette cassette = Cassette.fromJson(recording.cassette().toJson(), "c.json");
        assertThat(recording.cassette().toJson().at("/interactions/0/error").asText())
                .isEqualTo("web_search is down");
        assertThat(recording.cassette().toJson().at("/interactions/0").has("output"))
                .isFalse();

        assertThatThrownBy(() -> replay(new CassettePlayer(cassette, false), call))
                .isInstanceOf(ToolException.class)
                .hasMessage("web_search is down");
    }

    @Test
    void a_cassette_without_the_new_keys_reads_as_before_and_bad_ones_are_located() {
        Cassette old = Cassette.fromJson(json("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "t", "params": {}, "output": 1, "duration_ms": 5}]}"""), "old.json");
        assertThat(old.interactions().get(0).tokens()).isEqualTo(TokenCount.ZERO);
        assertThat(old.toJson().at("/interactions/0").has("tokens")).isFalse();

        assertThatThrownBy(() -> Cassette.fromJson(json("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "t", "output": 1, "duration_ms": 5, "chunks": [{"text": "a", "at_ms": 9}]}]}"""), "c.json"))
                .hasMessage("c.json: /interactions/0/chunks/0: at_ms 9 is after the interaction's duration_ms 5");
        assertThatThrownBy(() -> Cassette.fromJson(json("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "t", "output": 1, "tokens": {"prompt": -1, "completion": 0}}]}"""), "c.json"))
                .hasMessageStartingWith("c.json: /interactions/0/tokens: must be {\"prompt\": N, \"completion\": N}");
    }

    private static JsonNode replay(CassettePlayer player, Call call) {
        CallInterceptor unreachable = chain -> {
            throw new AssertionError("replay must not call anything real");
        };
        return new CallChain(List.of(player, unreachable), List.of()).execute(call);
    }

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
