package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.RunResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** {@code --replay-timing} waits each recorded duration, but never more than a minute per call. */
class ReplayTimingTest {

    @Test
    void a_recorded_duration_longer_than_a_minute_is_waited_for_one_minute() throws Exception {
        Cassette cassette = Cassette.fromJson(new ObjectMapper().readTree("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "t", "params": {}, "output": "fast", "duration_ms": 250},
                  {"type": "tool", "tool": "t", "params": {}, "output": "forever", "duration_ms": 1000000000000}]}"""), "c");
        List<Duration> waits = new CopyOnWriteArrayList<>();
        PlanVm vm = PlanVm.builder().sequential(true).retrySleeper(waits::add).build();
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "t", "tool_params": {}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "t", "tool_params": {}, "output_vars": "final_answer"}}]""";

        long before = System.nanoTime();
        RunResult result = assertTimeoutPreemptively(
                Duration.ofSeconds(60), // not hung: the sleeper records the waits, it does not sleep
                () -> vm.run(vm.loader().load(plan, "p").planOrThrow(), Map.of(), RunMode.replay(cassette, true)));

        assertThat(result.finalAnswer().asText()).isEqualTo("forever");
        Duration around = Duration.ofNanos(System.nanoTime() - before);
        // each wait is the recorded duration (at most a minute) less what its call had already taken: no more,
        // and less by no more than the whole run took (no wall-clock bound)
        assertThat(waits).hasSize(2);
        assertThat(waits.get(0))
                .isLessThanOrEqualTo(Duration.ofMillis(250))
                .isGreaterThanOrEqualTo(Duration.ofMillis(250).minus(around));
        assertThat(waits.get(1))
                .isLessThanOrEqualTo(Duration.ofMinutes(1))
                .isGreaterThanOrEqualTo(Duration.ofMinutes(1).minus(around));
    }
}
