package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durable runs whose sleeps wait for a timer ({@code new DurableRuns(vm, store, true)}, a server's): a sleep with time
 * left stops the run waiting, holding no thread, with its wake time stored; a resume once it is due goes on and
 * reports the whole sleep; a cancel ends it at once.
 */
class SleepWaitsForTimerTest {

    static final String NAP = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 3600}, "output_vars": "slept"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${slept.slept_seconds}"}}]""";

    private static final Instant START = Instant.now().truncatedTo(ChronoUnit.SECONDS);

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
    private final List<Duration> slept = new CopyOnWriteArrayList<>();
    private final PlanVm vm =
            PlanVm.builder().clock(clock).retrySleeper(slept::add).build();

    private DurableRun start(DurableRuns runs) {
        return runs.start(vm.loader().load(NAP, "nap.json").planOrThrow(), Map.of(), RunMode.live());
    }

    @Test
    void a_sleep_with_time_left_stops_the_run_waiting_with_its_wake_time_stored_and_a_resume_when_due_goes_on() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store, true);
            DurableRun run = start(runs);

            assertThat(run.result().status()).isEqualTo(RunStatus.WAITING);
            assertThat(run.result().error().kind()).isEqualTo(FailureKind.WAITING_FOR_TIMER);
            assertThat(run.result().error().describe())
                    .isEqualTo("seq_no 0 (calling): sleeping until " + START.plusSeconds(3600));
            assertThat(slept).as("no thread slept").isEmpty();
            assertThat(store.sleeping()).containsExactly(new RunStore.Sleeping(run.id(), START.plusSeconds(3600)));
            assertThat(store.wakeAt(run.id())).contains(START.plusSeconds(3600));

            clock.now = START.plusSeconds(1800);
            DurableRun early = runs.resume(run.id(), RunMode.live(), Map.of());
            assertThat(early.result().status())
                    .as("not due yet: it waits again")
                    .isEqualTo(RunStatus.WAITING);
            assertThat(store.sleeping()).containsExactly(new RunStore.Sleeping(run.id(), START.plusSeconds(3600)));

            clock.now = START.plusSeconds(3601);
            RunResult woke = runs.resume(run.id(), RunMode.live(), Map.of()).result();
            assertThat(woke.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(woke.finalAnswer().asDouble())
                    .as("the whole sleep, from its start to its wake time")
                    .isBetween(3595.0, 3600.0);
            assertThat(slept).isEmpty();
            assertThat(store.sleeping()).isEmpty();
        }
    }

    @Test
    void the_command_line_s_durable_runs_still_sleep_on_their_thread() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            RunResult result = start(new DurableRuns(vm, store)).result();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(slept).containsExactly(Duration.ofSeconds(3600));
            assertThat(store.sleeping()).isEmpty();
        }
    }

    @Test
    void cancelling_a_sleeping_run_fails_it_at_once() {
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(vm, store, true);
            String id = start(runs).id();

            assertThat(runs.cancelWaiting(id, "no longer needed")).isTrue();
            StoredRun stored = store.find(id).orElseThrow();
            assertThat(stored.status()).isEqualTo(RunStatus.FAILED);
            assertThat(stored.error().path("message").asText())
                    .isEqualTo("the run was cancelled while waiting for its sleep to end: no longer needed");
            assertThat(store.sleeping()).isEmpty();
            assertThat(runs.cancelWaiting(id, "again")).isFalse();
        }
    }

    static final String NAPPER = """
            {"name": "napper", "inputs": {"type": "object", "properties": {}},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 60}, "output_vars": "slept"}},
               {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "rested"}}]}""";

    static final String CALLS_NAPPER = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "napper", "tool_params": {}, "output_vars": "final_answer"}}]""";

    @Test
    void a_child_run_that_sleeps_makes_its_parent_wait_and_a_resume_of_the_parent_when_due_continues_both() {
        try (PlanVm parentVm = PlanVm.builder()
                        .clock(clock)
                        .retrySleeper(slept::add)
                        .planTool(vm.loader().load(NAPPER, "napper.json").planOrThrow())
                        .build();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(parentVm, store, true);
            DurableRun parent = runs.start(
                    parentVm.loader().load(CALLS_NAPPER, "parent.json").planOrThrow(), Map.of(), RunMode.live());

            assertThat(parent.result().status()).isEqualTo(RunStatus.WAITING);
            assertThat(parent.result().error().kind()).isEqualTo(FailureKind.WAITING_FOR_TIMER);
            String child = store.children(parent.id()).get(0).summary().id();
            assertThat(store.sleeping()).containsExactly(new RunStore.Sleeping(child, START.plusSeconds(60)));
            assertThat(runs.tree(store.find(child).orElseThrow()).root().id()).isEqualTo(parent.id());

            clock.now = START.plusSeconds(61);
            RunResult woke = runs.resume(parent.id(), RunMode.live(), Map.of()).result();
            assertThat(woke.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(woke.finalAnswer().asText()).isEqualTo("rested");
            assertThat(store.find(child).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(store.sleeping()).isEmpty();
            assertThat(slept).isEmpty();
        }
    }

    @Test
    void cancelling_a_parent_that_waits_for_its_sleeping_child_fails_both() {
        try (PlanVm parentVm = PlanVm.builder()
                        .clock(clock)
                        .planTool(vm.loader().load(NAPPER, "napper.json").planOrThrow())
                        .build();
                RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            DurableRuns runs = new DurableRuns(parentVm, store, true);
            String parent = runs.start(
                            parentVm.loader().load(CALLS_NAPPER, "parent.json").planOrThrow(), Map.of(), RunMode.live())
                    .id();
            String child = store.children(parent).get(0).summary().id();

            assertThat(runs.cancelWaiting(parent, null)).isTrue();
            assertThat(store.find(child).orElseThrow().status()).isEqualTo(RunStatus.FAILED);
            assertThat(store.find(child).orElseThrow().error().path("message").asText())
                    .isEqualTo("its parent run " + parent + " was cancelled while waiting for its sleep to end");
            assertThat(store.sleeping()).isEmpty();
        }
    }
}
