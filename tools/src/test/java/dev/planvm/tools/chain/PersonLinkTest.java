package dev.planvm.tools.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.approval.InputRequired;
import dev.planvm.tools.approval.PersonTools;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The link that answers a run's {@code human_input} and {@code sleep} calls through the run's {@link Approvals}:
 * the answer it knows (checked), a wait for one, a failure where no one can answer; a sleep until the wake time
 * the run keeps, on the run's clock.
 */
class PersonLinkTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-27T08:00:00Z");

    private final List<Duration> slept = new ArrayList<>();
    private final Sleeper sleeper = slept::add;

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private CallChain chain(Set<String> handled, Approvals person, Sleeper sleeper, Tool... own) {
        List<Tool> tools = new ArrayList<>(List.of(own));
        PersonTools.all().stream()
                .filter(tool -> tools.stream().noneMatch(mine -> mine.name().equals(tool.name())))
                .forEach(tools::add);
        return CallChains.standard(
                CallChains.parts(ToolRegistry.of(tools)).build(),
                null,
                new CallChains.RunLinks(
                        null,
                        List.of(),
                        List.of(CallChains.person(handled, person, Clock.fixed(NOW, ZoneOffset.UTC), sleeper)),
                        List.of()));
    }

    private CallChain chain(Approvals person) {
        return chain(Set.of("human_input", "sleep"), person, sleeper);
    }

    private static Call call(String tool, String params) {
        return new Call.ToolCall(tool, json(params), CallContext.of(3));
    }

    /** Knows {@code answer} for every human_input call; waits for input when {@code waits}. */
    private static Approvals answering(JsonNode answer, boolean waits) {
        return new Approvals() {
            @Override
            public Optional<Decision> decide(Call.ToolCall call) {
                return Optional.empty();
            }

            @Override
            public Optional<JsonNode> answer(Call.ToolCall call) {
                return Optional.ofNullable(answer);
            }

            @Override
            public boolean waitsForInput() {
                return waits;
            }
        };
    }

    @Test
    void a_known_right_answer_is_the_calls_output() {
        JsonNode output = chain(answering(TextNode.valueOf("yes"), false))
                .execute(call("human_input", "{\"prompt\": \"Go?\", \"choices\": [\"yes\", \"no\"]}"));

        assertThat(output).isEqualTo(TextNode.valueOf("yes"));
    }

    @Test
    void a_known_wrong_answer_fails_the_call_with_the_reason() {
        assertThatThrownBy(() -> chain(answering(TextNode.valueOf("maybe"), true))
                        .execute(call("human_input", "{\"prompt\": \"Go?\", \"choices\": [\"yes\", \"no\"]}")))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessageContaining("human_input: the answer \"maybe\" is not one of the choices yes, no");
    }

    @Test
    void without_an_answer_a_run_that_can_wait_waits_for_one_with_the_request() {
        assertThatThrownBy(() -> chain(answering(null, true))
                        .execute(call("human_input", "{\"prompt\": \"Name?\", \"schema\": {\"type\": \"string\"}}")))
                .isInstanceOfSatisfying(InputRequired.class, waiting -> {
                    assertThat(waiting.request().prompt()).isEqualTo("Name?");
                    assertThat(waiting.request().schema()).isEqualTo(json("{\"type\": \"string\"}"));
                });
    }

    @Test
    void without_an_answer_a_run_that_cannot_wait_fails_the_call() {
        assertThatThrownBy(() -> chain(answering(null, false)).execute(call("human_input", "{\"prompt\": \"Name?\"}")))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessageContaining(
                        "human_input needs a durable run or a terminal (run with a store, or on a terminal)");
    }

    @Test
    void wrong_params_fail_before_anyone_is_asked() {
        assertThatThrownBy(() -> chain(answering(TextNode.valueOf("x"), true)).execute(call("human_input", "{}")))
                .isInstanceOf(ToolException.class)
                .hasMessageContaining("human_input needs a prompt");
    }

    @Test
    void a_sleep_waits_until_the_wake_time_the_run_keeps_on_the_runs_clock() {
        JsonNode output = chain(Approvals.NONE).execute(call("sleep", "{\"seconds\": 90}"));

        assertThat(slept).containsExactly(Duration.ofSeconds(90));
        assertThat(output.path("slept_seconds").asInt()).isEqualTo(90);
        assertThat(output.path("woke_at").asText()).isEqualTo("2026-11-27T08:01:30Z");
    }

    @Test
    void a_resumed_sleep_waits_only_what_is_left_and_one_past_its_time_not_at_all() {
        Approvals resumed = new Approvals() {
            @Override
            public Optional<Decision> decide(Call.ToolCall call) {
                return Optional.empty();
            }

            @Override
            public Instant wakeAt(Call.ToolCall call, Instant planned) {
                return NOW.plusSeconds(call.params().path("seconds").asInt() == 90 ? 30 : -5);
            }
        };

        JsonNode left = chain(resumed).execute(call("sleep", "{\"seconds\": 90}"));
        JsonNode past = chain(resumed).execute(call("sleep", "{\"seconds\": 10}"));

        assertThat(slept)
                .as("the part left of the first; nothing for the second")
                .containsExactly(Duration.ofSeconds(30));
        assertThat(left.path("slept_seconds").asInt()).isEqualTo(30);
        assertThat(left.path("woke_at").asText()).isEqualTo("2026-11-27T08:00:30Z");
        assertThat(past.path("slept_seconds").decimalValue().signum()).isZero();
        assertThat(past.path("woke_at").asText()).isEqualTo("2026-11-27T07:59:55Z");
    }

    @Test
    void a_zero_sleep_does_not_wait() {
        JsonNode output = chain(Approvals.NONE).execute(call("sleep", "{\"seconds\": 0}"));

        assertThat(slept).isEmpty();
        assertThat(output.path("woke_at").asText()).isEqualTo("2026-11-27T08:00:00Z");
    }

    @Test
    void an_interrupted_sleep_fails_without_retry_and_keeps_the_interrupt() {
        Sleeper interrupted = duration -> {
            throw new InterruptedException("stop");
        };
        try {
            assertThatThrownBy(() -> chain(Set.of("human_input", "sleep"), Approvals.NONE, interrupted)
                            .execute(call("sleep", "{\"seconds\": 5}")))
                    .isInstanceOfSatisfying(
                            ToolException.class, e -> assertThat(e.retriable()).isFalse())
                    .hasMessageContaining("interrupted while sleeping");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void a_users_own_tool_of_a_built_in_name_is_called_as_any_tool() {
        Tool mine = Tool.of("sleep", "my own sleep", (params, context) -> TextNode.valueOf("mine"));

        JsonNode output =
                chain(Set.of("human_input"), Approvals.NONE, sleeper, mine).execute(call("sleep", "{\"seconds\": 5}"));

        assertThat(output).isEqualTo(TextNode.valueOf("mine"));
        assertThat(slept).isEmpty();
    }

    @Test
    void other_calls_pass_through() {
        Tool echo = Tool.of("echo", "echoes", (params, context) -> params.path("x"));

        assertThat(chain(Set.of("human_input", "sleep"), answering(TextNode.valueOf("no"), true), sleeper, echo)
                        .execute(call("echo", "{\"x\": 7}")))
                .isEqualTo(json("7"));
    }
}
