package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run on Temporal is one connected trace: the workflow's spans (the run, its steps, its calls) and,
 * under each call's span, the span of the activity that answered it on a worker, whose context reached
 * the worker as the W3C {@code traceparent} in the activity's input.
 */
class TracingOnTemporalTest {

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk telemetry = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .build();

    @AfterEach
    void close() {
        telemetry.close();
    }

    @Test
    @SuppressWarnings("try") // the workers run while the plan does
    void each_activity_span_is_a_child_of_its_call_span_under_the_workflow_run_span() {
        String queue = TestTemporal.queue("traced");
        Map<Integer, SpanContext> inTool = new ConcurrentHashMap<>();
        PlanResponse response;
        try (PlanWorkers workers = PlanWorkers.builder(
                        TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .openTelemetry(telemetry)
                .tool(Tool.of("greet", "greets", (params, context) -> {
                    inTool.put(context.seqNo(), Span.current().getSpanContext());
                    return TextNode.valueOf("hello " + params.get("who").asText());
                }))
                .build()
                .start()) {
            response = TestTemporal.plans(queue).run(PlanRequest.live("traced.json", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "Ann"}, "output_vars": "a"}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "${a}"}, "output_vars": "b"}},
                     {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${b}"}}]""", Map.of()));
        }
        assertThat(response.finalAnswer().asText()).isEqualTo("hello hello Ann");

        List<SpanData> spans = exporter.getFinishedSpanItems();
        Map<String, SpanData> byId = spans.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
        SpanData run = only(spans, "planvm.run");
        assertThat(run.getParentSpanContext().isValid()).isFalse();
        List<SpanData> activities = spans.stream()
                .filter(span -> span.getName().equals("planvm.activity execute_tool greet"))
                .toList();
        assertThat(activities).hasSize(2);
        for (SpanData activity : activities) {
            assertThat(activity.getKind()).isEqualTo(SpanKind.SERVER);
            assertThat(activity.getTraceId()).isEqualTo(run.getTraceId());
            SpanData call = byId.get(activity.getParentSpanId());
            assertThat(call).as("the workflow's span of the call").isNotNull();
            assertThat(call.getName()).isEqualTo("execute_tool greet");
            SpanData step = byId.get(call.getParentSpanId());
            assertThat(step.getName()).isEqualTo("planvm.step calling");
            assertThat(step.getParentSpanId()).isEqualTo(run.getSpanId());
            // the tool ran with the activity's span current (HTTP tools pass it on as traceparent)
            long seqNo = activity.getAttributes()
                    .get(io.opentelemetry.api.common.AttributeKey.longKey("planvm.call.seq_no"));
            assertThat(inTool.get((int) seqNo).getSpanId()).isEqualTo(activity.getSpanId());
        }
        assertThat(spans).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(run.getTraceId()));
        assertThat(spans.stream().filter(span -> span.getName().equals("planvm.run")))
                .as("one run span, however often the workflow's code ran")
                .hasSize(1);
    }

    @Test
    @SuppressWarnings("try")
    void without_telemetry_the_activity_input_carries_no_traceparent_and_no_span_is_made() {
        String queue = TestTemporal.queue("untraced");
        Map<Integer, SpanContext> inTool = new ConcurrentHashMap<>();
        try (PlanWorkers workers = PlanWorkers.builder(
                        TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tool(Tool.of("greet", "greets", (params, context) -> {
                    inTool.put(context.seqNo(), Span.current().getSpanContext());
                    return TextNode.valueOf("hello");
                }))
                .build()
                .start()) {
            PlanResponse response = TestTemporal.plans(queue).run(PlanRequest.live("plain.json", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {}, "output_vars": "final_answer"}}]""", Map.of()));
            assertThat(response.finalAnswer().asText()).isEqualTo("hello");
        }
        assertThat(inTool.get(0).isValid()).isFalse();
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    @Test
    @SuppressWarnings("try")
    void a_traced_run_replays_deterministically_and_its_replay_makes_no_spans() throws Exception {
        String queue = TestTemporal.queue("traced-replay");
        TemporalPlans plans = TestTemporal.plans(queue);
        String id;
        try (PlanWorkers workers = PlanWorkers.builder(
                        TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .openTelemetry(telemetry)
                .tool(Tool.of("greet", "greets", (params, context) -> TextNode.valueOf("hi")))
                .build()
                .start()) {
            id = plans.start(PlanRequest.live("replayed.json", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {}, "output_vars": "a"}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {}, "output_vars": "b"}},
                     {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a} ${b}"}}]""", Map.of()), null);
            assertThat(plans.result(id).finalAnswer().asText()).isEqualTo("hi hi");
        }
        int made = exporter.getFinishedSpanItems().size();
        assertThat(made).isGreaterThan(0);
        WorkflowExecutionHistory history =
                TestTemporal.environment().getWorkflowClient().fetchHistory(id);
        Worker replaying = WorkerFactory.newInstance(TestTemporal.environment().getWorkflowClient())
                .newWorker("replay-" + queue);
        dev.planvm.temporal.internal.WorkerParts.registerWorkflow(replaying, REPLAY, telemetry);

        WorkflowReplayer.replayWorkflowExecution(history, replaying); // throws on a nondeterministic command

        assertThat(exporter.getFinishedSpanItems())
                .as("no span made again by the replay")
                .hasSize(made);
    }

    private static final dev.planvm.temporal.internal.Deployment REPLAY = new dev.planvm.temporal.internal.Deployment(
            "replay",
            Map.of(),
            30_000,
            1024 * 1024,
            new dev.planvm.temporal.contract.ToolCatalog(List.of(), false, Map.of()),
            0);

    private static SpanData only(List<SpanData> spans, String name) {
        List<SpanData> named =
                spans.stream().filter(span -> span.getName().equals(name)).toList();
        assertThat(named).as(name).hasSize(1);
        return named.get(0);
    }
}
