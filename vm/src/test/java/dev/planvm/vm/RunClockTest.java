package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The run's clock: fixed once per run, taken from the run's options, a replayed cassette or the VM's
 * clock source (in that order), recorded in the trace and in a recorded cassette.
 */
class RunClockTest {

    private static final ZoneId OSLO = ZoneId.of("Europe/Oslo");
    /** Thursday 2026-11-26, 12:00 in Oslo. */
    private static final Instant THURSDAY = Instant.parse("2026-11-26T11:00:00Z");

    /** Books a flight for next Thursday morning, then answers with the date and the booking. */
    private static final String BOOKING = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "book",
               "tool_params": {"when": "${next(Thursday).morning}"}, "output_vars": "booking"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${today}: ${booking}"}}]""";

    private static PlanVm vm(Clock clock) {
        return PlanVm.builder()
                .clock(clock)
                .tool(Tool.of(
                        "book",
                        "",
                        (params, context) ->
                                TextNode.valueOf("booked " + params.path("when").asText())))
                .build();
    }

    private static Plan plan(PlanVm vm, String json) {
        return vm.loader().load(json, "plan.json").planOrThrow();
    }

    @Test
    void a_run_takes_the_vms_clock_source_at_its_start_and_writes_it_in_the_trace() {
        PlanVm vm = vm(Clock.fixed(THURSDAY, OSLO));
        RunResult result = vm.run(plan(vm, BOOKING), Map.of());
        assertThat(result.finalAnswer().asText()).isEqualTo("2026-11-26: booked 2026-12-03T09:00:00+01:00");
        assertThat(result.trace().get("clock"))
                .hasToString("{\"now\":\"2026-11-26T11:00:00Z\",\"tz\":\"Europe/Oslo\"}");
    }

    @Test
    void the_runs_options_bring_their_own_clock() {
        PlanVm vm = vm(Clock.fixed(THURSDAY, OSLO));
        RunOptions options =
                RunOptions.DEFAULT.withClock(new RunClock(Instant.parse("2026-03-28T23:30:00Z"), ZoneId.of("UTC")));
        RunResult result =
                vm.run(RunRequest.builder(plan(vm, BOOKING)).options(options).build());
        assertThat(result.finalAnswer().asText()).isEqualTo("2026-03-28: booked 2026-04-02T09:00:00Z");
    }

    @Test
    void every_now_of_one_run_is_the_same_instant() {
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("wait", "", (params, context) -> {
                    try {
                        Thread.sleep(30);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf("waited");
                }))
                .build();
        Plan plan = plan(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"first": "${now}"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "wait", "output_vars": "w"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${first == now}"}}]""");
        assertThat(vm.run(plan, Map.of()).finalAnswer().asBoolean()).isTrue();
    }

    @Test
    void a_recorded_cassette_keeps_the_clock_and_its_replay_computes_the_same_dates_a_week_later() {
        PlanVm recording = vm(Clock.fixed(THURSDAY, OSLO));
        RunMode.Record record = RunMode.record();
        RunResult recorded = recording.run(plan(recording, BOOKING), Map.of(), record);
        Cassette cassette = record.recording().cassette();
        assertThat(cassette.clock()).isEqualTo(new Cassette.RecordedClock(THURSDAY, OSLO));
        assertThat(cassette.toJson().get("clock"))
                .hasToString("{\"now\":\"2026-11-26T11:00:00Z\",\"tz\":\"Europe/Oslo\"}");

        PlanVm weekLater = PlanVm.builder()
                .clock(Clock.fixed(THURSDAY.plusSeconds(7 * 86_400), ZoneId.of("UTC")))
                .build();
        Cassette reread = Cassette.fromJson(cassette.toJson(), "cassette");
        RunResult replayed = weekLater.run(plan(weekLater, BOOKING), Map.of(), RunMode.replay(reread, false));
        assertThat(replayed.error()).isNull();
        assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());
    }

    @Test
    void a_cassette_without_a_clock_replays_with_the_vms_clock() {
        PlanVm recording = vm(Clock.fixed(THURSDAY, OSLO));
        RunMode.Record record = RunMode.record();
        recording.run(plan(recording, BOOKING), Map.of(), record);
        Cassette old = new Cassette(record.recording().cassette().interactions());
        assertThat(old.toJson().has("clock")).isFalse();

        PlanVm sameDay = PlanVm.builder()
                .clock(Clock.fixed(THURSDAY.plusSeconds(3600), OSLO))
                .build();
        assertThat(sameDay.run(plan(sameDay, BOOKING), Map.of(), RunMode.replay(old, false))
                        .finalAnswer()
                        .asText())
                .isEqualTo("2026-11-26: booked 2026-12-03T09:00:00+01:00");
        PlanVm weekLater = PlanVm.builder()
                .clock(Clock.fixed(THURSDAY.plusSeconds(7 * 86_400), OSLO))
                .build();
        RunResult missed = weekLater.run(plan(weekLater, BOOKING), Map.of(), RunMode.replay(old, false));
        assertThat(missed.error().describe())
                .as("next Thursday is another day now: the params differ")
                .contains("seq_no 0 (calling)")
                .contains("2026-12-10T09:00:00+01:00");
    }

    @Test
    void options_clock_wins_over_the_cassettes() {
        PlanVm vm = vm(Clock.fixed(THURSDAY, OSLO));
        Cassette cassette = new Cassette(List.of(), new Cassette.RecordedClock(THURSDAY, OSLO));
        RunClock mine = new RunClock(Instant.parse("2030-01-01T00:00:00Z"), ZoneId.of("UTC"));
        assertThat(vm.clockFor(RunOptions.DEFAULT.withClock(mine), RunMode.replay(cassette, false)))
                .isEqualTo(mine);
        assertThat(vm.clockFor(RunOptions.DEFAULT, RunMode.replay(cassette, false)))
                .isEqualTo(new RunClock(THURSDAY, OSLO));
        assertThat(vm.clockFor(RunOptions.DEFAULT, RunMode.live())).isEqualTo(new RunClock(THURSDAY, OSLO));
    }

    @Test
    void a_failing_step_of_a_plan_with_source_lines_names_its_line_in_the_error_and_the_trace() {
        PlanVm vm = vm(Clock.fixed(THURSDAY, OSLO));
        Plan plan = plan(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"a": "${today}"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${today.at('3:00xm')}"}}]""").withSourceLines(Map.of(0, 2, 1, 7));
        RunResult result = vm.run(plan, Map.of());
        assertThat(result.error().describe())
                .isEqualTo("line 7 (seq_no 1, assign): ${today.at('3:00xm')}: '3:00xm' is not a"
                        + " time of day: write 3:00pm, 15:00 or 15:00:30");
        assertThat(result.trace().path("steps").get(0).path("line").asInt()).isEqualTo(2);
        assertThat(result.trace().path("steps").get(1).path("line").asInt()).isEqualTo(7);
        assertThat(result.trace().path("error").path("line").asInt()).isEqualTo(7);
        PlanVm json = vm(Clock.fixed(THURSDAY, OSLO));
        RunResult plain = json.run(plan(json, BOOKING.replace("${today}", "${today.at(99)}")), Map.of());
        assertThat(plain.error().describe()).startsWith("seq_no 1 (assign): ");
        assertThat(plain.trace().path("steps").get(0).has("line")).isFalse();
    }
}
