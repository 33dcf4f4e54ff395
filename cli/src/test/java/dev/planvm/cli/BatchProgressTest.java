package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchProgressTest {

    @Test
    void no_bar_is_drawn_when_stderr_is_not_a_terminal() {
        // Surefire runs tests with stdin and stdout on pipes: no console, so no bar.
        assertThat(BatchProgress.stderrIsTerminal()).isFalse();
        try (BatchProgress progress = BatchProgress.forTerminal(3)) {
            assertThat(progress.shown()).isFalse();
        }
    }

    @Test
    void a_silent_progress_accepts_outcomes_and_closes() {
        try (BatchProgress progress = BatchProgress.silent()) {
            progress.planFinished(
                    0, new PlanOutcome(Path.of("a.json"), RunStatus.FAILED, null, "x", 1, 0, List.of(), null));
            assertThat(progress.shown()).isFalse();
        }
    }
}
