package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.cassette.Cassette;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one run.
 *
 * @param status      succeeded or failed
 * @param finalAnswer the variable {@code final_answer}; JSON null when it was never set
 * @param variables   every variable at the end of the run
 * @param error       why the run failed, or {@code null}
 * @param steps       how many instructions were executed
 * @param duration    wall time of the run
 * @param trace       the trace document (DESIGN §6), or {@code null} when tracing was off
 * @param warnings    run-time warnings (e.g. {@code final_answer} never set)
 * @param recording   the calls recorded by a run with {@link RunOptions#record()}, else {@code null};
 *                    also set when the run failed
 */
public record RunResult(RunStatus status, JsonNode finalAnswer, Map<String, JsonNode> variables, RunError error,
                        int steps, Duration duration, JsonNode trace, List<String> warnings, Cassette recording) {

    public RunResult {
        variables = Map.copyOf(variables);
        warnings = List.copyOf(warnings);
    }

    public boolean succeeded() {
        return status == RunStatus.SUCCEEDED;
    }
}
