package dev.planvm.vm.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchTest {

    @TempDir
    Path dir;

    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger calls = new AtomicInteger();

    /** {@code sleep}: waits params.ms, then returns params.value; counts calls running at once. */
    private final Tool sleep = Tool.of("sleep", "Waits params.ms, returns params.value.", (params, call) -> {
        calls.incrementAndGet();
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        try {
            Thread.sleep(params.path("ms").asLong());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ToolException.permanent("interrupted");
        } finally {
            inFlight.decrementAndGet();
        }
        return params.path("value");
    });

    private final Tool fail = Tool.of("fail", "Always fails.", (params, call) -> {
        throw ToolException.permanent("boom");
    });

    private final PlanVm vm = PlanVm.builder().tool(sleep).tool(fail).build();

    private Path plan(String name, String json) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file;
    }

    /** A plan that sleeps {@code ms} in a tool, then answers {@code value}. */
    private Path sleeper(String name, int ms, String value) throws Exception {
        return plan(name, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"ms": %d, "value": "%s"}, "output_vars": "v"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${v}"}}]""".formatted(ms, value));
    }

    private static List<String> answers(List<PlanOutcome> outcomes) {
        return outcomes.stream().map(o -> o.finalAnswer().asText()).toList();
    }

    @Test
    void outcomes_come_back_in_input_order_whatever_order_the_plans_finish_in() throws Exception {
        List<Path> plans = List.of(sleeper("a.json", 300, "a"), sleeper("b.json", 150, "b"), sleeper("c.json", 0, "c"));
        List<String> finished = new CopyOnWriteArrayList<>();
        List<PlanOutcome> outcomes = Batch.builder(vm)
                .concurrency(3)
                .build()
                .run(
                        plans,
                        (index, outcome) -> finished.add(outcome.finalAnswer().asText()));
        assertThat(outcomes).extracting(PlanOutcome::file).containsExactlyElementsOf(plans);
        assertThat(answers(outcomes)).containsExactly("a", "b", "c");
        assertThat(finished).containsExactly("c", "b", "a");
    }

    @Test
    void no_more_plans_than_the_concurrency_run_at_once() throws Exception {
        List<Path> plans = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            plans.add(sleeper("p" + i + ".json", 40, "v" + i));
        }
        List<PlanOutcome> outcomes = Batch.builder(vm).concurrency(3).build().run(plans);
        assertThat(outcomes).allMatch(PlanOutcome::succeeded);
        assertThat(calls).hasValue(12);
        assertThat(maxInFlight).hasValue(3);
    }

    @Test
    void plans_writing_the_same_variables_do_not_see_each_other() throws Exception {
        List<Path> plans = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            plans.add(plan("p" + i + ".json", """
                    [{"seq_no": 0, "type": "assign", "parameters": {"x": "%d"}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"ms": %d, "value": 0}, "output_vars": "ignored"}},
                     {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${x}"}}]""".formatted(i, 40 - 5 * i)));
            expected.add(String.valueOf(i));
        }
        List<PlanOutcome> outcomes = Batch.builder(vm).concurrency(8).build().run(plans);
        assertThat(answers(outcomes)).containsExactlyElementsOf(expected);
        assertThat(maxInFlight.get()).isGreaterThan(1);
    }

    @Test
    void a_failing_invalid_or_rejected_plan_does_not_stop_the_others() throws Exception {
        List<Path> plans = List.of(
                sleeper("first.json", 0, "one"),
                plan("fails.json", """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {}, "output_vars": "x"}}]"""),
                plan("invalid.json", "[{\"seq_no\": 0, \"type\": \"asign\", \"parameters\": {}}]"),
                plan("rejected.json", """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "missing", "tool_params": {}, "output_vars": "x"}}]"""),
                sleeper("last.json", 0, "two"));
        List<PlanOutcome> outcomes = Batch.builder(vm).concurrency(2).build().run(plans);
        assertThat(outcomes)
                .extracting(PlanOutcome::status)
                .containsExactly(
                        RunStatus.SUCCEEDED,
                        RunStatus.FAILED,
                        RunStatus.INVALID,
                        RunStatus.REJECTED,
                        RunStatus.SUCCEEDED);
        assertThat(outcomes.get(1).error()).contains("seq_no 0").contains("boom");
        assertThat(outcomes.get(2).error()).contains("did you mean 'assign'");
        assertThat(outcomes.get(3).error()).contains("tool 'missing' is not installed");
        assertThat(outcomes).extracting(o -> o.finalAnswer().isNull()).containsExactly(false, true, true, true, false);
    }

    @Test
    void inputs_reach_every_plan() throws Exception {
        List<Path> plans = List.of(
                plan(
                        "a.json",
                        "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"a ${n}\"}}]"),
                plan(
                        "b.json",
                        "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"b ${n}\"}}]"));
        List<PlanOutcome> outcomes = Batch.builder(vm)
                .inputs(Map.of("n", IntNode.valueOf(7)))
                .build()
                .run(plans);
        assertThat(answers(outcomes)).containsExactly("a 7", "b 7");
    }

    @Test
    void outcomes_keep_no_trace_though_the_listener_sees_it() throws Exception {
        List<JsonNode> traces = new CopyOnWriteArrayList<>();
        List<PlanOutcome> outcomes = Batch.builder(vm)
                .build()
                .run(List.of(sleeper("a.json", 0, "a")), (index, outcome) -> traces.add(outcome.trace()));
        assertThat(traces).hasSize(1).doesNotContainNull();
        assertThat(outcomes.get(0).trace()).isNull();
        assertThat(outcomes.get(0).steps()).isEqualTo(2);
    }

    @Test
    void a_listener_that_throws_changes_nothing() throws Exception {
        List<PlanOutcome> outcomes = Batch.builder(vm)
                .concurrency(1)
                .build()
                .run(List.of(sleeper("a.json", 0, "a"), sleeper("b.json", 0, "b")), (index, outcome) -> {
                    throw new IllegalStateException("listener bug");
                });
        assertThat(answers(outcomes)).containsExactly("a", "b");
    }

    @Test
    void dry_run_calls_no_tool() throws Exception {
        List<PlanOutcome> outcomes = Batch.builder(vm).dryRun(false).build().run(List.of(sleeper("a.json", 1000, "a")));
        assertThat(outcomes.get(0).status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(outcomes.get(0).finalAnswer().asText()).isEqualTo("<dry-run seq_no 0 sleep>");
        assertThat(calls).hasValue(0);
    }

    @Test
    void replay_takes_each_plans_cassette_from_the_directory() throws Exception {
        Path cassettes = Files.createDirectory(dir.resolve("cassettes"));
        Path plan = sleeper("a.json", 1000, "live");
        Files.writeString(cassettes.resolve("a.cassette.json"), """
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "sleep", "params": {"ms": 1000, "value": "live"}, "output": "replayed", "duration_ms": 1000}]}""");
        List<PlanOutcome> outcomes =
                Batch.builder(vm).replay(cassettes, false).build().run(List.of(plan));
        assertThat(answers(outcomes)).containsExactly("replayed");
        assertThat(calls).hasValue(0);
    }

    @Test
    void without_its_cassette_a_plan_runs_only_if_it_calls_nothing() throws Exception {
        Path cassettes = Files.createDirectory(dir.resolve("cassettes"));
        Path quiet =
                plan("quiet.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 42}}]");
        Path calling = sleeper("calling.json", 0, "live");
        List<PlanOutcome> outcomes =
                Batch.builder(vm).replay(cassettes, false).build().run(List.of(quiet, calling));
        assertThat(outcomes).extracting(PlanOutcome::status).containsExactly(RunStatus.SUCCEEDED, RunStatus.REJECTED);
        assertThat(outcomes.get(0).finalAnswer().asInt()).isEqualTo(42);
        assertThat(outcomes.get(1).error())
                .contains("no cassette")
                .contains("calling.cassette.json")
                .contains("seq_no 0 calls tool 'sleep'");
        assertThat(calls).as("an installed tool is not called live").hasValue(0);
    }

    @Test
    void replay_and_dry_run_exclude_each_other() {
        assertThatThrownBy(
                        () -> Batch.builder(vm).replay(dir, false).dryRun(true).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Batch.builder(vm).concurrency(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void an_empty_batch_returns_no_outcome() throws Exception {
        assertThat(Batch.builder(vm).build().run(List.of())).isEmpty();
    }

    @Test
    void plans_run_on_daemon_threads_that_never_keep_the_jvm_alive() throws Exception {
        List<Boolean> daemon = new CopyOnWriteArrayList<>();
        PlanVm probing = PlanVm.builder()
                .tool(Tool.of("probe", "Reports its thread.", (params, call) -> {
                    daemon.add(Thread.currentThread().isDaemon());
                    return TextNode.valueOf("ok");
                }))
                .build();
        Path plan = plan("p.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "probe", "tool_params": {}, "output_vars": "final_answer"}}]""");
        Batch.builder(probing).concurrency(1).build().run(List.of(plan));
        assertThat(daemon).containsExactly(true);
    }
}
