package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** One immutable request per run: its defaults, its immutability, and one clock per run. */
class RunRequestTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "params": {"t": "${name}"}, "output_vars": "r"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${today} ${r}"}}]""";

    private static final Instant NOW = Instant.parse("2026-11-26T11:00:00Z");

    /** A clock source that counts how often a run reads it. */
    static final class CountingClock extends Clock {
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public ZoneId getZone() {
            return ZoneId.of("UTC");
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            reads.incrementAndGet();
            return NOW;
        }
    }

    private static PlanVm vm(Clock clock) {
        return PlanVm.builder()
                .clock(clock)
                .tool(Tool.of("echo", "", (params, context) -> params.path("t")))
                .build();
    }

    private static Plan plan(PlanVm vm) {
        return vm.loader().load(PLAN, "plan.json").planOrThrow();
    }

    @Test
    void a_built_request_runs_live_from_the_plans_start_with_nothing_else() {
        PlanVm vm = vm(Clock.systemUTC());
        Plan plan = plan(vm);
        RunRequest request = RunRequest.builder(plan).build();
        assertThat(request.plan()).isSameAs(plan);
        assertThat(request.start()).isEqualTo(new Checkpoint(0, 0, Map.of()));
        assertThat(request.mode()).isEqualTo(RunMode.live());
        assertThat(request.session()).isNull();
        assertThat(request.options()).isEqualTo(RunOptions.DEFAULT);
        assertThat(request.listeners()).isEmpty();
        assertThat(request.approvals()).isNull();
        assertThat(request.control()).isNull();
        assertThat(request.journal()).isNull();
        assertThat(request.checked()).as("not checked until the VM checks it").isNull();
    }

    @Test
    void a_request_does_not_change_when_its_builder_or_inputs_do() {
        PlanVm vm = vm(Clock.systemUTC());
        Map<String, JsonNode> inputs = new HashMap<>(Map.of("name", TextNode.valueOf("Ann")));
        RunRequest.Builder builder = RunRequest.builder(plan(vm)).inputs(inputs);
        RunRequest request = builder.build();
        inputs.put("name", TextNode.valueOf("Bo"));
        builder.listener(new RunListener() {}).options(RunOptions.DEFAULT.withKeepGoing(true));
        RunRequest more = request.toBuilder().listener(new RunListener() {}).build();

        assertThat(request.start().variables()).containsEntry("name", TextNode.valueOf("Ann"));
        assertThat(request.listeners()).isEmpty();
        assertThat(request.options().keepGoing()).isFalse();
        assertThat(more.listeners()).hasSize(1);
        assertThatThrownBy(() -> request.listeners().add(new RunListener() {}))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void a_request_in_a_session_takes_its_mode_and_refuses_another() {
        PlanVm vm = vm(Clock.systemUTC());
        RunSession session = vm.session(RunMode.dryRun(false));
        assertThat(RunRequest.builder(plan(vm)).session(session).build().mode()).isEqualTo(RunMode.dryRun(false));
        assertThatThrownBy(() -> RunRequest.builder(plan(vm))
                        .session(session)
                        .mode(RunMode.live())
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the run's mode (live) is not its session's (dry-run)");
    }

    @Test
    void a_run_reads_the_vms_clock_once_and_a_checked_request_keeps_that_clock() {
        CountingClock clock = new CountingClock();
        PlanVm vm = vm(clock);
        RunRequest checked = vm.check(RunRequest.builder(plan(vm))
                .inputs(Map.of("name", TextNode.valueOf("Ann")))
                .build());
        assertThat(clock.reads).hasValue(1);
        assertThat(checked.options().clock()).isEqualTo(new RunClock(NOW, ZoneId.of("UTC")));
        assertThat(vm.check(checked)).as("checked once").isSameAs(checked);

        RunResult result = vm.run(checked);
        assertThat(result.finalAnswer().asText()).isEqualTo("2026-11-26 Ann");
        assertThat(clock.reads).as("the run used the checked request's clock").hasValue(1);

        vm.run(plan(vm), Map.of("name", TextNode.valueOf("Bo")));
        assertThat(clock.reads).as("one more run, one more read").hasValue(2);
    }

    @Test
    void a_request_changed_after_its_check_is_checked_again() {
        PlanVm vm = vm(Clock.systemUTC());
        RunRequest checked = vm.check(RunRequest.builder(plan(vm)).build());
        assertThat(checked.checked()).isNotNull();
        assertThat(checked.toBuilder().listener(new RunListener() {}).build().checked())
                .as("a listener changes nothing the check looked at")
                .isSameAs(checked.checked());
        assertThat(checked.toBuilder()
                        .options(checked.options().withKeepGoing(true))
                        .build()
                        .checked())
                .isNull();
        assertThat(checked.toBuilder().mode(RunMode.dryRun(true)).build().checked())
                .isNull();
        assertThat(checked.toBuilder().plan(plan(vm)).build().checked()).isNull();
    }

    @Test
    void the_conveniences_run_the_same_request() {
        PlanVm vm = vm(Clock.fixed(NOW, ZoneId.of("UTC")));
        Map<String, JsonNode> inputs = Map.of("name", TextNode.valueOf("Ann"));
        assertThat(vm.run(plan(vm), inputs).finalAnswer())
                .isEqualTo(
                        vm.run(RunRequest.of(plan(vm), inputs, RunMode.live())).finalAnswer());
        assertThat(vm.run(plan(vm), inputs, RunMode.dryRun(false)).variables().keySet())
                .containsAll(List.of("name", "r"));
    }
}
