package dev.planvm.vm.durable;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Custom;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Tool;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store keeps what a step did as typed data, not as its trace entry: a custom handler's halt
 * (a resume does not run the instruction after it), and a condition call whose prompt is a JSON
 * object (a resumed replay is not served its answer a second time).
 */
class StoredOutcomesTest {

    @TempDir
    Path dir;

    private Path db() {
        return dir.resolve("runs.db");
    }

    /** What a process that died right after committing the last step leaves: running, no owner. */
    private void crashedBeforeItsEnd(String id) {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db());
                Statement s = connection.createStatement()) {
            s.execute("PRAGMA busy_timeout=10000");
            s.execute("UPDATE runs SET status = 'running', finished_at = NULL, final_answer = NULL, owner = NULL, "
                    + "lease_until = NULL WHERE id = '" + id + "'");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void a_custom_handlers_halt_is_committed_and_a_resume_ends_there_without_running_the_next_instruction() {
        AtomicInteger after = new AtomicInteger();
        InstructionHandler<Custom> stop = (instruction, step) -> Outcome.halt();
        PlanVm vm = PlanVm.builder()
                .handler("stop", stop)
                .tool(Tool.of("after", "Counts its calls.", (params, context) -> {
                    after.incrementAndGet();
                    return TextNode.valueOf("after the halt");
                }))
                .build();
        Plan plan = vm.loader().load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "halted"}},
                 {"seq_no": 1, "type": "stop", "parameters": {}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "after", "output_vars": "final_answer"}}]""", "halt.json").planOrThrow();
        try (RunStore store = RunStore.open(db())) {
            DurableRun first = new DurableRuns(vm, store).start(plan, Map.of(), RunMode.live());
            assertThat(first.result().finalAnswer().asText()).isEqualTo("halted");
            StoredStep halt = store.find(first.id()).orElseThrow().steps().get(1);
            assertThat(halt.seqNo()).isEqualTo(1);
            assertThat(halt.outcome()).isEqualTo("halt");

            crashedBeforeItsEnd(first.id());
            RunResult resumed = new DurableRuns(vm, store)
                    .resume(first.id(), RunMode.live(), Map.of())
                    .result();

            assertThat(resumed.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(resumed.finalAnswer().asText()).isEqualTo("halted");
            assertThat(after).hasValue(0);
            assertThat(store.find(first.id()).orElseThrow().steps())
                    .extracting(StoredStep::seqNo)
                    .containsExactly(0, 1);
        }
    }

    /** A loop asking the same condition, whose prompt is a JSON object, until it says false: true, true, false gives 2. */
    private static final String LOOP = """
            [{"seq_no": 0, "type": "assign", "parameters": {"n": 0, "q": {"question": "another round?", "rounds": ["a", "b"]}}},
             {"seq_no": 1, "type": "jmp", "parameters": {"condition_prompt": "${q}", "jump_if_true": 2, "jump_if_false": 4}},
             {"seq_no": 2, "type": "assign", "parameters": {"n": "${n + 1}"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 1}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${n}"}}]""";

    /** Answers true, true, false, then fails; counts every question. */
    private static ConditionEvaluator scripted(AtomicInteger asked) {
        Deque<Boolean> answers = new ArrayDeque<>(List.of(true, true, false));
        return (prompt, context, call) -> {
            asked.incrementAndGet();
            Boolean answer = answers.poll();
            if (answer == null) {
                throw new IllegalStateException("asked once too often: " + prompt);
            }
            return new ConditionResult(answer, "scripted " + answer);
        };
    }

    @Test
    void an_object_condition_prompt_answered_before_an_interruption_is_not_served_again_on_resume() {
        AtomicInteger asked = new AtomicInteger();
        PlanVm recorder = PlanVm.builder()
                .conditionEvaluator(scripted(asked))
                .sequential(true)
                .build();
        RunMode.Record record = RunMode.record();
        RunResult recorded =
                recorder.run(recorder.loader().load(LOOP, "loop.json").planOrThrow(), Map.of(), record);
        assertThat(recorded.finalAnswer().intValue()).isEqualTo(2);
        Cassette cassette = record.recording().cassette();

        // the replayed run stops after its first condition; the cassette is its only evaluator
        PlanVm vm = PlanVm.builder().sequential(true).build();
        Plan plan = vm.loader().load(LOOP, "loop.json").planOrThrow();
        RunControl control = new RunControl();
        RunListener stopAfterTheCondition = new RunListener() {
            @Override
            public void stepFinished(StepRecord step) {
                if (step.seqNo() == 1) {
                    control.interrupt("test");
                }
            }
        };
        try (RunStore store = RunStore.open(db())) {
            DurableRun first = new DurableRuns(vm, store)
                    .start(RunRequest.builder(plan)
                            .mode(RunMode.replay(cassette, false))
                            .listener(stopAfterTheCondition)
                            .control(control)
                            .build());
            assertThat(first.result().status()).isEqualTo(RunStatus.INTERRUPTED);
            List<Call> committed =
                    store.find(first.id()).orElseThrow().steps().get(1).calls();
            assertThat(committed)
                    .singleElement()
                    .isInstanceOfSatisfying(
                            Call.ConditionCall.class,
                            condition -> assertThat(condition.prompt()).contains("another round?"));

            RunResult resumed = new DurableRuns(vm, store)
                    .resume(first.id(), RunMode.replay(cassette, false), Map.of())
                    .result();

            assertThat(resumed.status()).as(String.valueOf(resumed.error())).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(resumed.finalAnswer().intValue()).isEqualTo(2);
        }
        assertThat(asked)
                .as("the evaluator was asked by the recording run only")
                .hasValue(3);
    }
}
