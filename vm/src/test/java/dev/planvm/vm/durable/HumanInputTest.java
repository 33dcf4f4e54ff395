package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in human_input tool: a durable run waits for the answer, which becomes the call's output. */
class HumanInputTest {

    /** Asks how many, then doubles the answer. */
    static final String ASK = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "How many copies?", "schema": {"type": "integer", "minimum": 1}}, "output_vars": "n"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"n": "${n}"}, "output_vars": "c"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${c * 2}"}}]""";

    @TempDir
    Path dir;

    private final AtomicInteger counts = new AtomicInteger();

    private PlanVm vm() {
        return PlanVm.builder()
                .tool(Tool.of("count", "", (p, c) -> {
                    counts.incrementAndGet();
                    return p.path("n");
                }))
                .build();
    }

    private static Plan plan(PlanVm vm, String json) {
        return vm.loader().load(json, "ask.json").planOrThrow();
    }

    @Test
    void a_durable_run_waits_for_input_and_an_answer_after_a_restart_becomes_the_output_once() {
        Path file = dir.resolve("runs.db");
        String id;
        try (RunStore store = RunStore.open(file)) {
            PlanVm vm = vm();
            DurableRun run = new DurableRuns(vm, store).start(plan(vm, ASK), Map.of(), RunMode.live());
            id = run.id();
            assertThat(run.result().status()).isEqualTo(RunStatus.WAITING);
            assertThat(run.result().error().describe())
                    .isEqualTo("seq_no 0 (calling): waiting for input: How many copies?");
            assertThat(run.result().error().kind())
                    .as("waiting for a person's answer, not for a reviewer")
                    .isEqualTo(FailureKind.WAITING_FOR_INPUT);
            assertThat(run.result().pending().tool()).isEqualTo("human_input");
        }
        try (RunStore store = RunStore.open(file)) { // a new process
            StoredInput pending = store.pendingInput(id).orElseThrow();
            assertThat(pending.callId()).isEqualTo("step-1");
            assertThat(pending.seqNo()).isZero();
            assertThat(pending.request().prompt()).isEqualTo("How many copies?");
            PlanVm vm = vm();
            DurableRuns runs = new DurableRuns(vm, store);
            assertThatThrownBy(() -> runs.resume(id, RunMode.live(), Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("waits for input at seq_no 0 (How many copies?): answer it (planvm answer");
            assertThatThrownBy(() -> runs.answer(
                            id,
                            null,
                            TextNode.valueOf("three"),
                            RunRequest.builder().mode(RunMode.live()).build(),
                            Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("keeps waiting: the answer \"three\" does not fit the schema")
                    .extracting(e -> ((DurableRunException) e).kind())
                    .isEqualTo(FailureKind.REJECTED_BEFORE_RUNNING);
            assertThatThrownBy(() -> runs.answer(
                            id,
                            "step-9",
                            IntNode.valueOf(3),
                            RunRequest.builder().mode(RunMode.live()).build(),
                            Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("waits for input step-1, not step-9");
            assertThat(store.find(id).orElseThrow().status())
                    .as("a wrong answer leaves it waiting")
                    .isEqualTo(RunStatus.WAITING);
            DurableRun answered = runs.answer(
                    id,
                    "step-1",
                    IntNode.valueOf(3),
                    RunRequest.builder().mode(RunMode.live()).build(),
                    Map.of());
            assertThat(answered.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(answered.result().finalAnswer().asInt()).isEqualTo(6);
            assertThat(counts).hasValue(1);
            assertThat(store.inputs(id)).singleElement().satisfies(input -> {
                assertThat(input.pending()).isFalse();
                assertThat(input.answer().asInt()).isEqualTo(3);
            });
            assertThat(store.find(id)
                            .orElseThrow()
                            .steps()
                            .get(0)
                            .writes()
                            .path("n")
                            .asInt())
                    .as("the answer is committed as the step's output")
                    .isEqualTo(3);
            assertThatThrownBy(() -> runs.answer(
                            id,
                            null,
                            IntNode.valueOf(4),
                            RunRequest.builder().mode(RunMode.live()).build(),
                            Map.of()))
                    .isInstanceOf(DurableRunException.class)
                    .hasMessageContaining("does not wait for input (it is succeeded)");
        }
    }

    @Test
    void choices_refuse_an_answer_that_is_not_one_of_them() {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Ship it?", "choices": ["yes", "no"]}, "output_vars": "final_answer"}}]""";
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            PlanVm vm = vm();
            DurableRuns runs = new DurableRuns(vm, store);
            String id = runs.start(plan(vm, plan), Map.of(), RunMode.live()).id();
            assertThatThrownBy(() -> runs.answer(
                            id,
                            null,
                            TextNode.valueOf("maybe"),
                            RunRequest.builder().mode(RunMode.live()).build(),
                            Map.of()))
                    .hasMessageContaining("the answer \"maybe\" is not one of the choices yes, no");
            assertThat(runs.answer(
                                    id,
                                    null,
                                    TextNode.valueOf("no"),
                                    RunRequest.builder().mode(RunMode.live()).build(),
                                    Map.of())
                            .result()
                            .finalAnswer()
                            .asText())
                    .isEqualTo("no");
        }
    }

    @Test
    void a_run_without_a_store_asks_its_person_and_fails_the_step_when_there_is_none() {
        PlanVm nobody = vm();
        RunResult failed = nobody.run(plan(nobody, ASK), Map.of());
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error().message()).contains("human_input needs a durable run or a terminal");
        PlanVm terminal = PlanVm.builder()
                .tool(Tool.of("count", "", (p, c) -> p.path("n")))
                .approvals(new Approvals() {
                    @Override
                    public Optional<Decision> decide(Call.ToolCall call) {
                        return Optional.empty();
                    }

                    @Override
                    public Optional<JsonNode> answer(Call.ToolCall call) {
                        return Optional.of(IntNode.valueOf(5));
                    }
                })
                .build();
        assertThat(terminal.run(plan(terminal, ASK), Map.of()).finalAnswer().asInt())
                .isEqualTo(10);
    }

    @Test
    void a_recorded_answer_replays_without_a_person_and_a_dry_run_gets_a_placeholder() {
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("count", "", (p, c) -> p.path("n")))
                .approvals(new Approvals() {
                    @Override
                    public Optional<Decision> decide(Call.ToolCall call) {
                        return Optional.empty();
                    }

                    @Override
                    public Optional<JsonNode> answer(Call.ToolCall call) {
                        return Optional.of(IntNode.valueOf(7));
                    }
                })
                .build();
        RunMode.Record record = RunMode.record();
        assertThat(vm.run(plan(vm, ASK), Map.of(), record).finalAnswer().asInt())
                .isEqualTo(14);
        Cassette cassette = Cassette.fromJson(record.recording().cassette().toJson(), "ask.cassette.json");
        assertThat(cassette.tools()).contains("human_input");

        PlanVm nobody = vm();
        RunResult replayed = nobody.run(plan(nobody, ASK), Map.of(), RunMode.replay(cassette, false));
        assertThat(replayed.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(replayed.finalAnswer().asInt()).isEqualTo(14);
        RunResult dry = nobody.run(plan(nobody, ASK), Map.of(), RunMode.dryRun(false));
        assertThat(dry.variables().get("n").asText()).startsWith("<dry-run");
    }
}
