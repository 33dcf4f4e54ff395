package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.temporal.contract.InputAnswer;
import dev.planvm.temporal.contract.PlanProgress;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.PlanWorkflow;
import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.temporal.contract.WaitingInput;
import dev.planvm.temporal.internal.Deployment;
import dev.planvm.temporal.internal.PlanWorkflowImpl;
import dev.planvm.temporal.internal.WorkerParts;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import io.temporal.workflow.Workflow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Recorded histories of plan workflows (see {@link HistoryRecording}) replay against the current
 * workflow code: a change that would make running workflows fail on their next task after a
 * deployment (a command added, removed or reordered) fails this test instead.
 */
class ReplayDeterminismTest {

    private static final Deployment ANY =
            new Deployment("replay", Map.of(), 30_000, 1024 * 1024, new ToolCatalog(List.of(), false, Map.of()), 0);

    @Test
    void every_recorded_history_replays_against_the_current_workflow() throws Exception {
        List<Path> histories = histories();
        assertThat(histories).hasSizeGreaterThanOrEqualTo(8);
        Worker worker = replayWorker("current");
        WorkerParts.registerWorkflow(worker, ANY);
        for (Path history : histories) {
            WorkflowReplayer.replayWorkflowExecution(
                    WorkflowExecutionHistory.fromJson(Files.readString(history)), worker);
        }
    }

    @Test
    void a_workflow_that_changed_its_commands_does_not_replay_them() throws Exception {
        Worker worker = replayWorker("changed");
        worker.registerWorkflowImplementationFactory(PlanWorkflow.class, ChangedWorkflow::new);
        Path history = HistoryRecording.DIRECTORY.resolve("fan-in.json");

        assertThatThrownBy(() -> WorkflowReplayer.replayWorkflowExecution(
                        WorkflowExecutionHistory.fromJson(Files.readString(history)), worker))
                .hasMessageContaining("NonDeterministicException");
    }

    private static Worker replayWorker(String queue) {
        return WorkerFactory.newInstance(TestTemporal.environment().getWorkflowClient())
                .newWorker("replay-" + queue);
    }

    private static List<Path> histories() throws IOException {
        try (Stream<Path> files = Files.list(HistoryRecording.DIRECTORY)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    /** The plan workflow with a timer added before it runs: an incompatible change. */
    public static final class ChangedWorkflow implements PlanWorkflow {
        private final PlanWorkflowImpl original = new PlanWorkflowImpl(ANY);

        @Override
        public PlanResponse run(PlanRequest request) {
            Workflow.sleep(Duration.ofSeconds(1));
            return original.run(request);
        }

        @Override
        public PlanProgress progress() {
            return original.progress();
        }

        @Override
        public List<WaitingInput> inputs() {
            return original.inputs();
        }

        @Override
        public int answer(InputAnswer answer) {
            return original.answer(answer);
        }

        @Override
        public void validateAnswer(InputAnswer answer) {
            original.validateAnswer(answer);
        }
    }
}
