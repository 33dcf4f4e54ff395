package dev.planvm.tools.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The built-in {@code human_input} and {@code sleep} tools on their own: what params they take (each refusal
 * says what is wrong), what a right answer is, when a sleep ends, and what the tools answer outside a run that
 * can wait for a person.
 */
class PersonToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static void refused(Runnable action, String message) {
        assertThatThrownBy(action::run)
                .isInstanceOfSatisfying(
                        ToolException.class,
                        e -> assertThat(e.retriable())
                                .as("a wrong param is not retried")
                                .isFalse())
                .hasMessage(message);
    }

    @Test
    void human_input_takes_a_prompt_and_a_schema_or_choices() {
        InputRequest plain = InputRequest.of(json("{\"prompt\": \"Name?\"}"));
        assertThat(plain.prompt()).isEqualTo("Name?");
        assertThat(plain.schema()).isNull();
        assertThat(plain.choices()).isEmpty();

        InputRequest choices = InputRequest.of(json("{\"prompt\": \"Go?\", \"choices\": [\"yes\", \"no\"]}"));
        assertThat(choices.choices()).containsExactly("yes", "no");
        InputRequest schema = InputRequest.of(json("{\"prompt\": \"Age?\", \"schema\": {\"type\": \"integer\"}}"));
        assertThat(schema.schema()).isEqualTo(json("{\"type\": \"integer\"}"));
        assertThat(InputRequest.of(json("{\"prompt\": \"Any?\", \"schema\": true}"))
                        .schema()
                        .booleanValue())
                .isTrue();
    }

    @Test
    void human_input_refuses_params_that_do_not_say_what_to_ask() {
        refused(() -> InputRequest.of(null), "human_input takes an object {prompt, schema?, choices?}");
        refused(() -> InputRequest.of(json("[1]")), "human_input takes an object {prompt, schema?, choices?}");
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"x\", \"hint\": 1, \"default\": 2}")),
                "human_input has no param hint, default (it takes prompt, schema and choices)");
        refused(() -> InputRequest.of(json("{}")), "human_input needs a prompt: a text that says what to answer");
        refused(
                () -> InputRequest.of(json("{\"prompt\": 3}")),
                "human_input needs a prompt: a text that says what to answer");
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"  \"}")),
                "human_input needs a prompt: a text that says what to answer");
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"x\", \"schema\": \"int\"}")),
                "human_input's schema must be a JSON Schema object, not \"int\"");
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"x\", \"choices\": []}")),
                "human_input's choices must be a non-empty array of strings");
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"x\", \"choices\": \"yes\"}")),
                "human_input's choices must be a non-empty array of strings");
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"x\", \"choices\": [\"a\", 2]}")),
                "human_input's choices must be strings, not 2");
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"x\", \"schema\": {}, \"choices\": [\"a\"]}")),
                "human_input takes a schema or choices, not both");
    }

    @Test
    void an_answer_must_be_one_of_the_choices_or_fit_the_schema() {
        InputRequest choices = InputRequest.of(json("{\"prompt\": \"Go?\", \"choices\": [\"yes\", \"no\"]}"));
        assertThat(choices.refusal(json("\"yes\""))).isEmpty();
        assertThat(choices.refusal(json("\"maybe\"")))
                .contains("the answer \"maybe\" is not one of the choices yes, no");
        assertThat(choices.refusal(json("1"))).contains("the answer 1 is not one of the choices yes, no");

        InputRequest schema =
                InputRequest.of(json("{\"prompt\": \"Age?\", \"schema\": {\"type\": \"integer\", \"minimum\": 0}}"));
        assertThat(schema.refusal(json("42"))).isEmpty();
        assertThat(schema.refusal(json("-1")))
                .hasValueSatisfying(why -> assertThat(why).startsWith("the answer -1 does not fit the schema: "));

        InputRequest any = InputRequest.of(json("{\"prompt\": \"Anything?\"}"));
        assertThat(any.refusal(json("{\"a\": [1, 2]}"))).isEmpty();
        assertThat(any.refusal(null)).contains("no answer was given");
        assertThat(any.refusal(json("{}").path("missing"))).contains("no answer was given");
    }

    @Test
    void a_long_wrong_answer_is_cut_to_200_characters_in_the_refusal() {
        InputRequest choices = InputRequest.of(json("{\"prompt\": \"Go?\", \"choices\": [\"yes\"]}"));
        String exactly = "\"" + "a".repeat(198) + "\"";
        assertThat(choices.refusal(json(exactly))).contains("the answer " + exactly + " is not one of the choices yes");
        String longer = "\"" + "a".repeat(199) + "\"";
        assertThat(choices.refusal(json(longer)))
                .contains("the answer " + longer.substring(0, 200) + "… is not one of the choices yes");
    }

    @Test
    void human_input_refuses_a_schema_with_a_ref_cycle_when_it_is_called_not_at_every_answer() {
        refused(
                () -> InputRequest.of(json("{\"prompt\": \"x\", \"schema\": {\"$defs\": {\"a\": {\"$ref\":"
                        + " \"#/$defs/a\"}}, \"$ref\": \"#/$defs/a\"}}")),
                "human_input's schema cannot be used: its $ref at /$defs/a/$ref leads back to /$defs/a without going"
                        + " deeper into the value (a $ref cycle): no value could ever be checked");
    }

    @Test
    void an_unusable_schema_is_named_rather_than_thrown() {
        InputRequest broken =
                InputRequest.of(json("{\"prompt\": \"x\", \"schema\": {\"$ref\": \"https://127.0.0.1:1/missing\"}}"));
        assertThat(broken.refusal(json("1")))
                .hasValueSatisfying(why -> assertThat(why).startsWith("the input's schema cannot be used: "));
    }

    @Test
    void the_params_schemas_describe_what_the_tools_take() {
        JsonNode input = InputRequest.paramsSchema();
        assertThat(input.path("required")).containsExactly(json("\"prompt\""));
        assertThat(input.path("additionalProperties").booleanValue()).isFalse();
        assertThat(input.at("/properties/prompt/minLength").asInt()).isEqualTo(1);
        assertThat(input.at("/properties/choices/minItems").asInt()).isEqualTo(1);
        assertThat(input.at("/properties/choices/items/type").asText()).isEqualTo("string");
        assertThat(input.at("/properties/schema/type").asText()).isEqualTo("object");

        JsonNode sleep = SleepRequest.paramsSchema();
        assertThat(sleep.at("/properties/seconds/minimum").asInt()).isZero();
        assertThat(sleep.at("/properties/seconds/maximum").asLong()).isEqualTo(30L * 24 * 3600);
        assertThat(sleep.at("/properties/until/type").asText()).isEqualTo("string");
        assertThat(sleep.path("minProperties").asInt()).isEqualTo(1);
        assertThat(sleep.path("maxProperties").asInt()).isEqualTo(1);
        assertThat(sleep.path("additionalProperties").booleanValue()).isFalse();
    }

    @Test
    void sleep_takes_seconds_from_zero_to_thirty_days_or_an_instant() {
        assertThat(SleepRequest.of(json("{\"seconds\": 0}")).seconds()).isEqualByComparingTo(BigDecimal.ZERO);
        assertThat(SleepRequest.of(json("{\"seconds\": 2592000}")).seconds())
                .isEqualByComparingTo(BigDecimal.valueOf(2_592_000));
        assertThat(SleepRequest.of(json("{\"until\": \"2026-11-27T10:00:00+01:00\"}"))
                        .until())
                .isEqualTo(Instant.parse("2026-11-27T09:00:00Z"));

        refused(() -> SleepRequest.of(null), "sleep takes an object {seconds} or {until}");
        refused(() -> SleepRequest.of(json("5")), "sleep takes an object {seconds} or {until}");
        refused(
                () -> SleepRequest.of(json("{}")),
                "sleep takes exactly one of seconds (a number) and until (an ISO-8601 time), not {}");
        refused(
                () -> SleepRequest.of(json("{\"seconds\": 1, \"until\": \"2026-11-27T09:00:00Z\"}")),
                "sleep takes exactly one of seconds (a number) and until (an ISO-8601 time), not "
                        + "{\"seconds\":1,\"until\":\"2026-11-27T09:00:00Z\"}");
        refused(
                () -> SleepRequest.of(json("{\"minutes\": 1}")),
                "sleep takes exactly one of seconds (a number) and until (an ISO-8601 time), not {\"minutes\":1}");
        refused(() -> SleepRequest.of(json("{\"seconds\": \"5\"}")), "sleep's seconds must be a number, not \"5\"");
        refused(
                () -> SleepRequest.of(json("{\"seconds\": -0.001}")),
                "sleep's seconds must be between 0 and 2592000 (30 days), not -0.001");
        refused(
                () -> SleepRequest.of(json("{\"seconds\": 2592000.5}")),
                "sleep's seconds must be between 0 and 2592000 (30 days), not 2592000.5");
        refused(() -> SleepRequest.of(json("{\"until\": 5}")), "sleep's until must be an ISO-8601 time text, not 5");
        refused(
                () -> SleepRequest.of(json("{\"until\": \"tomorrow\"}")),
                "sleep's until 'tomorrow' is not an ISO-8601 time with an offset (e.g. 2026-11-27T09:00:00Z)");
    }

    @Test
    void a_sleep_ends_its_seconds_after_it_starts_or_at_its_instant_within_thirty_days() {
        Instant now = Instant.parse("2026-11-27T08:00:00Z");
        assertThat(SleepRequest.of(json("{\"seconds\": 1.5}")).wake(now)).isEqualTo(now.plusMillis(1_500));
        assertThat(SleepRequest.of(json("{\"seconds\": 0.000000001}")).wake(now))
                .isEqualTo(now.plusNanos(1));
        Instant in30Days = now.plus(Duration.ofDays(30));
        assertThat(SleepRequest.of(json("{\"until\": \"" + in30Days + "\"}")).wake(now))
                .isEqualTo(in30Days);
        Instant past = now.minusSeconds(60);
        assertThat(SleepRequest.of(json("{\"until\": \"" + past + "\"}")).wake(now))
                .as("a time already past ends the sleep at once")
                .isEqualTo(past);
        Instant tooFar = in30Days.plusSeconds(1);
        refused(
                () -> SleepRequest.of(json("{\"until\": \"" + tooFar + "\"}")).wake(now),
                "sleep's until " + tooFar + " is more than 30 days away");
    }

    @Test
    void a_sleep_answers_how_long_it_slept_and_when_it_woke() {
        JsonNode out = SleepRequest.output(Duration.ofMillis(1_250), Instant.parse("2026-11-27T08:00:01.250Z"));
        assertThat(out.path("slept_seconds").decimalValue()).isEqualByComparingTo(new BigDecimal("1.250"));
        assertThat(out.path("woke_at").asText()).isEqualTo("2026-11-27T08:00:01.250Z");
    }

    @Test
    void the_built_ins_are_named_described_and_known_as_built_ins() {
        List<Tool> all = PersonTools.all();
        assertThat(all).extracting(Tool::name).containsExactly("human_input", "sleep");
        for (Tool tool : all) {
            assertThat(PersonTools.isBuiltIn(tool)).isTrue();
            assertThat(tool.hasSideEffects()).as(tool.name()).isTrue();
            assertThat(tool.description()).isNotBlank();
        }
        assertThat(all.get(0).paramsSchema()).isEqualTo(InputRequest.paramsSchema());
        assertThat(all.get(1).paramsSchema()).isEqualTo(SleepRequest.paramsSchema());
        assertThat(PersonTools.isBuiltIn(Tool.of("human_input", "a user's own", (p, c) -> p)))
                .as("a user's tool of the same name")
                .isFalse();
    }

    @Test
    void outside_a_run_that_can_wait_human_input_fails_and_sleep_sleeps() {
        Tool input = PersonTools.all().get(0);
        refused(
                () -> input.invoke(json("{\"prompt\": \"Name?\"}"), CallContext.of(0)),
                "human_input needs a durable run or a terminal");
        refused(
                () -> input.invoke(json("{}"), CallContext.of(0)),
                "human_input needs a prompt: a text that says what to answer");

        Tool sleep = PersonTools.all().get(1);
        Instant before = Instant.now();
        JsonNode out = sleep.invoke(json("{\"seconds\": 0.05}"), CallContext.of(0));
        assertThat(Duration.between(before, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(40));
        assertThat(out.path("slept_seconds").decimalValue()).isBetween(new BigDecimal("0.04"), new BigDecimal("0.05"));
        JsonNode past = sleep.invoke(json("{\"until\": \"2020-01-01T00:00:00Z\"}"), CallContext.of(0));
        assertThat(past.path("slept_seconds").decimalValue()).isEqualByComparingTo(BigDecimal.ZERO);
        assertThat(past.path("woke_at").asText()).isEqualTo("2020-01-01T00:00:00Z");
    }

    @Test
    void an_interrupted_sleep_fails_without_retry_and_keeps_the_interrupt() {
        Tool sleep = PersonTools.all().get(1);
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> sleep.invoke(json("{\"seconds\": 5}"), CallContext.of(0)))
                    .isInstanceOfSatisfying(
                            ToolException.class, e -> assertThat(e.retriable()).isFalse())
                    .hasMessage("interrupted while sleeping");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
