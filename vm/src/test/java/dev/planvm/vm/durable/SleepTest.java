package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.tools.call.Sleeper;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in sleep tool: a durable run keeps the wake time, so a resumed run sleeps only what is left. */
class SleepTest {

    static final String NAP = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 2}, "output_vars": "slept"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${slept.slept_seconds}"}}]""";

    private static final Instant START = Instant.parse("2026-11-26T10:00:00Z");

    @TempDir
    Path dir;

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        Instant now = START;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final TestClock clock = new TestClock();
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    private PlanVm vm(Sleeper sleeper) {
        return PlanVm.builder().clock(clock).retrySleeper(sleeper).build();
    }

    private static Plan plan(PlanVm vm, String json) {
        return vm.loader().load(json, "nap.json").planOrThrow();
    }

    @Test
    void a_run_stopped_while_sleeping_and_resumed_later_sleeps_only_what_is_left() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm dying = vm(duration -> {
                sleeps.add(duration);
                throw new IllegalStateException("the process stops while sleeping");
            });
            String id = new DurableRuns(dying, store)
                    .start(plan(dying, NAP), Map.of(), RunMode.live())
                    .id();
            assertThat(sleeps).containsExactly(Duration.ofSeconds(2));

            clock.now = START.plusMillis(1500);
            PlanVm later = vm(sleeps::add);
            RunResult resumed = new DurableRuns(later, store)
                    .resume(id, RunMode.live(), Map.of())
                    .result();
            assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(sleeps).containsExactly(Duration.ofSeconds(2), Duration.ofMillis(500));
            assertThat(resumed.finalAnswer().decimalValue()).isEqualByComparingTo("0.5");
            assertThat(resumed.variables().get("slept").path("woke_at").asText())
                    .isEqualTo("2026-11-26T10:00:02Z");
        }
    }

    @Test
    void a_run_resumed_after_its_wake_time_does_not_sleep_at_all() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm dying = vm(duration -> {
                throw new IllegalStateException("the process stops while sleeping");
            });
            String id = new DurableRuns(dying, store)
                    .start(plan(dying, NAP), Map.of(), RunMode.live())
                    .id();
            clock.now = START.plusSeconds(60);
            RunResult resumed = new DurableRuns(vm(sleeps::add), store)
                    .resume(id, RunMode.live(), Map.of())
                    .result();
            assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(sleeps).isEmpty();
            assertThat(resumed.finalAnswer().decimalValue()).isEqualByComparingTo("0");
        }
    }

    @Test
    void until_sleeps_to_that_time_and_bad_params_fail_the_step_with_the_reason() {
        PlanVm vm = vm(sleeps::add);
        String until = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"until": "2026-11-26T11:00:00+01:00"}, "output_vars": "final_answer"}}]""";
        clock.now = START.minusSeconds(30);
        assertThat(vm.run(plan(vm, until), Map.of()).status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(30));
        String both = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 1, "until": "2026-11-26T11:00:00Z"}, "output_vars": "final_answer"}}]""";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> vm.run(plan(vm, both), Map.of()))
                .as("written out, refused before the run starts (as validate refuses it)")
                .isInstanceOf(dev.planvm.vm.PlanRejectedException.class)
                .hasMessageContaining(
                        "seq_no 0 at /0/parameters: params do not fit the schema of tool 'sleep': sleep takes"
                                + " exactly one of seconds");
        String bothLater = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": "${s}", "until": "2026-11-26T11:00:00Z"}, "output_vars": "final_answer"}}]""";
        RunResult failed =
                vm.run(plan(vm, bothLater), Map.of("s", com.fasterxml.jackson.databind.node.IntNode.valueOf(1)));
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error().message()).contains("sleep takes exactly one of seconds");
        String tooLong = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 3000000}, "output_vars": "final_answer"}}]""";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> vm.run(plan(vm, tooLong), Map.of()))
                .isInstanceOf(dev.planvm.vm.PlanRejectedException.class)
                .hasMessageContaining("between 0 and 2592000 (30 days)");
    }

    @Test
    void a_replay_returns_the_recorded_output_at_once() {
        PlanVm vm = vm(sleeps::add);
        RunMode.Record record = RunMode.record();
        assertThat(vm.run(plan(vm, NAP), Map.of(), record).status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(2));
        RunResult replayed = vm.run(
                plan(vm, NAP), Map.of(), RunMode.replay(record.recording().cassette(), false));
        assertThat(replayed.finalAnswer().decimalValue()).isEqualByComparingTo("2");
        assertThat(sleeps).as("no sleep in the replay").hasSize(1);
    }
}
