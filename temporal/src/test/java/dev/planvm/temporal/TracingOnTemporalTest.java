package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.temporal.common.WorkflowExecutionHistory;
import io.temporal.testing.WorkflowReplayer;
import io.temporal.worker.Worker;
import io.temporal.worker.WorkerFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A run on Temporal is one connected trace: the workflow's spans (the run, its steps, its calls) and,
 * under each call's span, the span of the activity that answered it on a worker, whose context reached
 * the worker as the W3C {@code traceparent} in the activity's input; under the submitting client's span
 * when there is one (the request's {@code traceparent}), also after the workflow moved to another worker; a
 * plan tool's child workflow under the parent's span of its call.
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

    @Test
    @SuppressWarnings("try") // the workers run while the plan does
    void the_workflow_run_span_is_a_child_of_the_submitting_client_span() {
        String queue = TestTemporal.queue("traced-client");
        Span client = telemetry.getTracer("client").spanBuilder("client").startSpan();
        PlanResponse response;
        try (PlanWorkers workers = PlanWorkers.builder(
                        TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .openTelemetry(telemetry)
                .tool(Tool.of("greet", "greets", (params, context) -> TextNode.valueOf("hi")))
                .build()
                .start()) {
            try (Scope current = client.makeCurrent()) {
                response = TestTemporal.plans(queue).run(PlanRequest.live("client.json", """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {}, "output_vars": "final_answer"}}]""", Map.of()));
            }
        } finally {
            client.end();
        }
        assertThat(response.finalAnswer().asText()).isEqualTo("hi");

        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData run = only(spans, "planvm.run");
        assertThat(run.getParentSpanId()).isEqualTo(client.getSpanContext().getSpanId());
        assertThat(spans)
                .as("one trace from the client to the activities")
                .allSatisfy(span -> assertThat(span.getTraceId())
                        .isEqualTo(client.getSpanContext().getTraceId()));
        assertThat(spans).extracting(SpanData::getName).contains("planvm.activity execute_tool greet");
    }

    @Test
    @SuppressWarnings("try") // the workers run while the plan does
    void a_plan_tool_child_workflow_runs_in_its_parent_trace_under_the_span_of_its_call() throws Exception {
        String queue = TestTemporal.queue("traced-child");
        String twice = """
                {"name": "twice", "inputs": {"type": "object", "properties": {"start": {"type": "string"}}},
                 "plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${start}"}, "output_vars": "a"}},
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${a}"}, "output_vars": "final_answer"}}]}""";
        TemporalPlans plans = TestTemporal.plans(queue);
        String id;
        try (PlanWorkers workers = PlanWorkers.builder(
                        TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .openTelemetry(telemetry)
                .tool(Tool.of(
                        "step",
                        "appends +",
                        (params, context) -> TextNode.valueOf(params.get("n").asText() + "+")))
                .build()
                .start()) {
            id = plans.start(
                    PlanRequest.builder("parent.json", """
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"start": "a"}, "output_vars": "final_answer"}}]""", Map.of())
                            .planTools(
                                    List.of(new dev.planvm.temporal.contract.PlanToolSource("twice.json", twice)), null)
                            .build(),
                    null);
            assertThat(plans.result(id).finalAnswer().asText()).isEqualTo("a++");
        }

        List<SpanData> spans = exporter.getFinishedSpanItems();
        Map<String, SpanData> byId = spans.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
        List<SpanData> runs = spans.stream()
                .filter(span -> span.getName().equals("planvm.run"))
                .toList();
        assertThat(runs).as("the parent's run span and the child workflow's").hasSize(2);
        SpanData parent = runs.stream()
                .filter(span -> !span.getParentSpanContext().isValid())
                .findFirst()
                .orElseThrow();
        SpanData child = runs.get(runs.indexOf(parent) == 0 ? 1 : 0);
        SpanData call = byId.get(child.getParentSpanId());
        assertThat(call).as("the parent workflow's span of the plan-tool call").isNotNull();
        assertThat(call.getName()).isEqualTo("execute_tool twice");
        assertThat(spans)
                .as("one trace from the parent run to the child's activities")
                .allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(parent.getTraceId()));
        assertThat(spans.stream().filter(span -> span.getName().equals("planvm.activity execute_tool step")))
                .hasSize(2);

        // the child's input carries the call's traceparent, which a replay of the parent does not make again
        Worker replaying = WorkerFactory.newInstance(TestTemporal.environment().getWorkflowClient())
                .newWorker("replay-" + queue);
        dev.planvm.temporal.internal.WorkerParts.registerWorkflow(replaying, REPLAY, telemetry);
        WorkflowReplayer.replayWorkflowExecution(
                TestTemporal.environment().getWorkflowClient().fetchHistory(id), replaying);
        assertThat(exporter.getFinishedSpanItems())
                .as("no span made again by the replay")
                .hasSize(spans.size());
    }

    @Test
    void a_request_carries_no_traceparent_in_its_json_when_there_is_no_client_span() throws Exception {
        PlanRequest plain = PlanRequest.live("plain.json", "[]", Map.of());
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();

        assertThat(json.writeValueAsString(plain)).doesNotContain("traceparent");
        String traced = json.writeValueAsString(
                plain.toBuilder().traceparent(TRACEPARENT).build());
        assertThat(traced).contains("\"traceparent\":\"" + TRACEPARENT + "\"");
        assertThat(json.readValue(traced, PlanRequest.class).traceparent()).isEqualTo(TRACEPARENT);
    }

    /**
     * The workers run without sticky execution, so the workflow leaves a worker's cache after each workflow task
     * (as it does when evicted, or when its worker stops), and the first worker dies mid-plan.
     */
    @Test
    @SuppressWarnings("try") // the client's span is current while it submits
    void a_workflow_that_leaves_its_worker_ends_the_spans_that_worker_held_and_the_next_worker_goes_on_in_the_trace()
            throws Exception {
        String queue = TestTemporal.queue("traced-moved");
        TemporalPlans plans = TestTemporal.plans(queue);
        CountDownLatch hung = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Map<Integer, AtomicInteger> invocations = new ConcurrentHashMap<>();
        Span client = telemetry.getTracer("client").spanBuilder("client").startSpan();
        PlanWorkers first = movingWorkers(queue, invocations, hung, release).start();
        PlanWorkers second = null;
        PlanResponse response;
        try {
            String id;
            try (Scope current = client.makeCurrent()) {
                id = plans.start(PlanRequest.live("moved.json", """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "0"}, "output_vars": "a"}},
                         {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${a}"}, "output_vars": "b"}},
                         {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${b}"}, "output_vars": "final_answer"}}]""", Map.of()), null);
            }
            assertThat(hung.await(60, TimeUnit.SECONDS))
                    .as("the call at seq_no 1 started")
                    .isTrue();
            SpanData leftRun = only(exporter.getFinishedSpanItems(), "planvm.run");
            assertThat(leftRun.getAttributes().get(LEFT_WORKER))
                    .as("the run's span, ended when the workflow left the worker's cache, before the run ended")
                    .isTrue();

            first.kill(); // the spans its workflows still hold end with it
            second = movingWorkers(queue, invocations, hung, release).start();
            response = plans.result(id);
        } finally {
            release.countDown();
            client.end();
            if (second != null) {
                second.close();
            }
        }
        assertThat(response.finalAnswer().asText()).isEqualTo("step(step(step(0)))");

        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans)
                .as("one trace, on both workers")
                .allSatisfy(span -> assertThat(span.getTraceId())
                        .isEqualTo(client.getSpanContext().getTraceId()));
        assertThat(spans.stream().filter(span -> span.getName().equals("planvm.run")))
                .as("a replay makes no run span again")
                .hasSize(1);
        for (long seqNo = 0; seqNo <= 2; seqNo++) {
            long step = seqNo;
            assertThat(spans)
                    .as("the span of step %d, ended though the workflow left the worker that held it open", step)
                    .anySatisfy(span -> {
                        assertThat(span.getName()).isEqualTo("planvm.step calling");
                        assertThat(span.getAttributes().get(STEP_SEQ_NO)).isEqualTo(step);
                    });
        }
        SpanData last = spans.stream()
                .filter(span -> span.getName().equals("planvm.step calling")
                        && Long.valueOf(2).equals(span.getAttributes().get(STEP_SEQ_NO)))
                .findFirst()
                .orElseThrow();
        assertThat(last.getParentSpanId())
                .as("a step made after a replay: under the client's span")
                .isEqualTo(client.getSpanContext().getSpanId());
    }

    /** Workers whose tool {@code step} wraps n; its first call at seq_no 1 hangs until {@code release}. */
    private PlanWorkers movingWorkers(
            String queue, Map<Integer, AtomicInteger> invocations, CountDownLatch hung, CountDownLatch release) {
        return PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .openTelemetry(telemetry)
                .tool(Tool.of("step", "wraps n", (params, context) -> {
                    int call = invocations
                            .computeIfAbsent(context.seqNo(), s -> new AtomicInteger())
                            .incrementAndGet();
                    if (context.seqNo() == 1 && call == 1) {
                        hung.countDown();
                        awaitIgnoringInterrupts(release); // the worker is gone: nothing it does reaches the server
                    }
                    return TextNode.valueOf("step(" + params.get("n").asText() + ")");
                }))
                .heartbeatTimeout(Duration.ofSeconds(3))
                .stickyQueueTimeout(Duration.ZERO)
                .build();
    }

    private static void awaitIgnoringInterrupts(CountDownLatch release) {
        while (true) {
            try {
                release.await();
                return;
            } catch (InterruptedException ignored) {
                // a dead worker does not stop early
            }
        }
    }

    private static List<String> names(List<SpanData> spans) {
        return spans.stream().map(SpanData::getName).toList();
    }

    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    private static final AttributeKey<Boolean> LEFT_WORKER = AttributeKey.booleanKey("planvm.workflow.left_worker");
    private static final AttributeKey<Long> STEP_SEQ_NO = AttributeKey.longKey("planvm.step.seq_no");

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
