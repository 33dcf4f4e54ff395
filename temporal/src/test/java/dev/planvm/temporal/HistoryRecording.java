package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.cassette.Cassette;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Records the workflow histories that {@link ReplayDeterminismTest} replays: example and corpus
 * plans with tools replayed from cassettes or stand-ins, concurrent activities, a retried call,
 * a call cancelled when a step fails. Run it after a deliberate change to the workflow's commands
 * (then old histories no longer replay; see "Changing the workflow" in docs/guides/temporal.md):
 * {@code mvn -pl temporal -am verify -Dtest=HistoryRecording -Dplanvm.temporal.record-histories=true}.
 */
@EnabledIfSystemProperty(named = "planvm.temporal.record-histories", matches = "true")
class HistoryRecording {

    static final Path DIRECTORY = Path.of("src/test/resources/histories");

    private final StandInTools standIns = new StandInTools();
    private final AtomicInteger flaky = new AtomicInteger();

    @Test
    @SuppressWarnings("try") // the workers run while the plans do
    void records_the_histories() throws Exception {
        Files.createDirectories(DIRECTORY);
        String queue = TestTemporal.queue("history");
        List<Tool> tools =
                new ArrayList<>(standIns.tools(List.of("llm_generate", "vector_search", "retrieve_knowledge_graph")));
        tools.add(Tool.of("search", "slow search", (params, context) -> {
            sleep(200);
            return TextNode.valueOf("search(" + params.path("q").asText() + ")");
        }));
        tools.add(Tool.of("flaky", "fails once", (params, context) -> {
            if (flaky.incrementAndGet() == 1) {
                throw ToolException.retryAfter("HTTP 429: slow down", Duration.ofSeconds(5));
            }
            return TextNode.valueOf("flaky answered");
        }));
        tools.add(Tool.of("refused", "fails for good", (params, context) -> {
            throw ToolException.permanent("HTTP 404");
        }));
        try (PlanWorkers workers = PlanWorkers.builder(
                        TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tools(tools)
                .conditionEvaluator(standIns.conditions())
                .build()
                .start()) {
            TemporalPlans plans = TestTemporal.plans(queue);
            for (String example : List.of("stackvm-tidb-best-practices", "refine-until-complete", "spec-even-or-odd")) {
                standIns.replay(Cassette.read(Path.of("../plans/" + example + ".cassette.json")));
                record(plans, example, Files.readString(Path.of("../plans/" + example + ".json")), "live");
            }
            standIns.replay(null);
            record(plans, "spec-assign", Files.readString(Path.of("../plans/spec-assign.json")), "live");
            record(
                    plans,
                    "corpus-plan-100",
                    Files.readString(Path.of("../plans/compat/stackvm/plan-100.json")),
                    "live");
            record(plans, "fan-in", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "a"}, "output_vars": "a"}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "b"}, "output_vars": "b"}},
                     {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "${a}+${b}"}, "output_vars": "final_answer"}}]""", "live");
            record(plans, "retried", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "flaky", "tool_params": {}, "output_vars": "final_answer"}}]""", "live");
            record(plans, "cancelled", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "refused", "tool_params": {}, "output_vars": "a"}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "b"}, "output_vars": "b"}},
                     {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a} ${b}"}}]""", "live");
        }
    }

    private static void record(TemporalPlans plans, String name, String plan, String mode) throws Exception {
        String id = plans.start(PlanRequest.live(name + ".json", plan, Map.of()), "history-" + name);
        PlanResponse response = plans.result(id);
        assertThat(response.status()).as(name).isIn("succeeded", "failed");
        Files.writeString(DIRECTORY.resolve(name + ".json"), Histories.json(plans.client(), id));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
