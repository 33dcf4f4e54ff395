package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RunSpansTest {

    private static final AttributeKey<Long> SEQ_NO = AttributeKey.longKey("planvm.step.seq_no");
    private static final AttributeKey<Long> CALL_SEQ_NO = AttributeKey.longKey("planvm.call.seq_no");

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exporter))
            .build();
    private final OpenTelemetrySdk telemetry =
            OpenTelemetrySdk.builder().setTracerProvider(provider).build();

    /** The span context current inside each call, by the call's seq_no. */
    private final Map<Long, SpanContext> currentInTool = new ConcurrentHashMap<>();

    @AfterEach
    void close() {
        telemetry.close();
    }

    /** Three independent searches (they all wait until all three run: they overlap), then one reading them. */
    private static final String FAN_IN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "a"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "b"}, "output_vars": "b"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "c"}, "output_vars": "c"}},
             {"seq_no": 3, "type": "assign", "parameters": {"all": "${a}${b}${c}"}},
             {"seq_no": 4, "type": "calling", "parameters": {"tool_name": "llm_generate",
               "tool_params": {"prompt": "sum up ${all}", "model": "tiny-1"}, "output_vars": "final_answer"}}]""";

    private Tool search(CountDownLatch allThree) {
        return Tool.of("search", "waits until three searches run", (params, context) -> {
            currentInTool.put((long) context.seqNo(), Span.current().getSpanContext());
            allThree.countDown();
            try {
                if (context.seqNo() < 3 && !allThree.await(30, TimeUnit.SECONDS)) {
                    throw ToolException.permanent("the three searches did not overlap");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return TextNode.valueOf(params.path("q").asText());
        });
    }

    private static Tool llm() {
        return Tool.of(PlanVm.LLM_TOOL, "a stand-in LLM", (params, context) -> {
            context.events().tokens(new TokenCount(12, 5));
            return TextNode.valueOf("summary");
        });
    }

    private RunResult run(PlanVm vm, String json) {
        Plan plan = vm.loader().load(json, "plans/fan-in.json").planOrThrow();
        return vm.run(plan, Map.of());
    }

    @Test
    void a_plan_tool_child_run_is_in_its_parent_trace_under_the_span_of_its_call() {
        Plan twice =
                new dev.planvm.instructions.PlanLoader().load("""
                        {"name": "twice", "inputs": {"type": "object", "properties": {"start": {"type": "string"}}},
                         "plan": [
                          {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${start}"}, "output_vars": "a"}},
                          {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${a}"}, "output_vars": "final_answer"}}]}""", "twice.json").planOrThrow();
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of(
                        "step",
                        "appends +",
                        (params, context) -> TextNode.valueOf(params.get("n").asText() + "+")))
                .planTool(twice)
                .openTelemetry(telemetry)
                .build();

        RunResult result = run(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"start": "a"}, "output_vars": "final_answer"}}]""");

        assertThat(result.finalAnswer().asText()).isEqualTo("a++");
        List<SpanData> spans = exporter.getFinishedSpanItems();
        Map<String, SpanData> byId = spans.stream().collect(Collectors.toMap(SpanData::getSpanId, s -> s));
        List<SpanData> runs =
                spans.stream().filter(s -> s.getName().equals("planvm.run")).toList();
        assertThat(runs).as("the parent's run span and the child run's").hasSize(2);
        SpanData parent = only(runs, s -> !s.getParentSpanContext().isValid());
        SpanData child = only(runs, s -> s != parent);
        SpanData call = byId.get(child.getParentSpanId());
        assertThat(call).as("the parent's span of the plan-tool call").isNotNull();
        assertThat(call.getName()).isEqualTo("execute_tool twice");
        assertThat(spans).allSatisfy(s -> assertThat(s.getTraceId()).isEqualTo(parent.getTraceId()));
    }

    @Test
    void calls_started_early_are_children_of_their_steps_under_the_run() {
        PlanVm vm = PlanVm.builder()
                .tool(search(new CountDownLatch(3)))
                .tool(llm())
                .openTelemetry(telemetry)
                .build();

        RunResult result = run(vm, FAN_IN);

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.trace().at("/early_calls/started").asInt()).isGreaterThanOrEqualTo(2);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData runSpan = only(spans, s -> s.getName().equals("planvm.run"));
        assertThat(runSpan.getParentSpanContext().isValid()).isFalse();
        assertThat(runSpan.getAttributes().get(AttributeKey.stringKey("planvm.plan.name")))
                .isEqualTo("fan-in.json");
        assertThat(runSpan.getAttributes().get(AttributeKey.stringKey("planvm.run.status")))
                .isEqualTo("succeeded");
        Map<Long, SpanData> steps = spans.stream()
                .filter(s -> s.getName().startsWith("planvm.step"))
                .collect(Collectors.toMap(s -> s.getAttributes().get(SEQ_NO), s -> s));
        assertThat(steps).containsOnlyKeys(0L, 1L, 2L, 3L, 4L);
        steps.values().forEach(step -> assertThat(step.getParentSpanId()).isEqualTo(runSpan.getSpanId()));
        assertThat(steps.get(3L).getName()).isEqualTo("planvm.step assign");
        Map<Long, SpanData> calls = spans.stream()
                .filter(s -> s.getAttributes().get(CALL_SEQ_NO) != null)
                .collect(Collectors.toMap(s -> s.getAttributes().get(CALL_SEQ_NO), s -> s));
        assertThat(calls).containsOnlyKeys(0L, 1L, 2L, 4L);
        calls.forEach((seqNo, call) -> {
            assertThat(call.getParentSpanId()).isEqualTo(steps.get(seqNo).getSpanId());
            assertThat(call.getTraceId()).isEqualTo(runSpan.getTraceId());
        });
        for (long seqNo = 0; seqNo < 3; seqNo++) {
            SpanData call = calls.get(seqNo);
            assertThat(call.getName()).isEqualTo("execute_tool search");
            assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.name")))
                    .isEqualTo("search");
            assertThat(call.getAttributes().get(AttributeKey.longKey("planvm.call.attempts")))
                    .isEqualTo(1L);
            // the call's span is current inside the tool, on whichever thread runs it
            assertThat(currentInTool.get(seqNo).getSpanId()).isEqualTo(call.getSpanId());
        }
        // 1 and 2 started before their turn: their steps' spans began with them, the turn is an event
        for (long seqNo : new long[] {1, 2}) {
            assertThat(calls.get(seqNo).getAttributes().get(AttributeKey.booleanKey("planvm.call.early")))
                    .isTrue();
            assertThat(steps.get(seqNo).getEvents())
                    .extracting(e -> e.getName())
                    .contains("planvm.step.turn");
        }
        assertThat(calls.get(0L).getAttributes().get(AttributeKey.booleanKey("planvm.call.early")))
                .isNull();
    }

    @Test
    void llm_calls_follow_the_genai_semantic_conventions() {
        PlanVm vm = PlanVm.builder()
                .tool(search(new CountDownLatch(3)))
                .tool(llm())
                .openTelemetry(telemetry)
                .build();

        run(vm, FAN_IN);

        SpanData chat = only(exporter.getFinishedSpanItems(), s -> s.getName().startsWith("chat"));
        assertThat(chat.getName()).isEqualTo("chat tiny-1");
        assertThat(chat.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name")))
                .isEqualTo("chat");
        assertThat(chat.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model")))
                .isEqualTo("tiny-1");
        assertThat(chat.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")))
                .isEqualTo(12L);
        assertThat(chat.getAttributes().get(AttributeKey.longKey("gen_ai.usage.output_tokens")))
                .isEqualTo(5L);
        // the prompt is never an attribute
        assertThat(chat.getAttributes().asMap().values())
                .noneMatch(v -> String.valueOf(v).contains("sum up"));
    }

    @Test
    void a_failing_call_is_an_error_with_its_message_redacted_and_no_stack_trace() {
        CountDownLatch secondStarted = new CountDownLatch(1);
        PlanVm vm = PlanVm.builder()
                .secrets(Map.of("TOKEN", "s3cr3t-value"))
                .tool(Tool.of("fails", "fails naming a secret", (params, context) -> {
                    try {
                        secondStarted.await(30, TimeUnit.SECONDS); // so the next call has started early
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw ToolException.permanent("denied for key s3cr3t-value");
                }))
                .tool(Tool.of("other", "answers", (params, context) -> {
                    secondStarted.countDown();
                    return TextNode.valueOf("x");
                }))
                .openTelemetry(telemetry)
                .build();

        RunResult result = run(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fails", "tool_params": {}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "other", "tool_params": {}, "output_vars": "final_answer"}}]""");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData call = only(spans, s -> s.getName().equals("execute_tool fails"));
        assertThat(call.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(call.getStatus().getDescription()).contains("«secret:TOKEN»");
        assertThat(call.getEvents()).extracting(e -> e.getName()).containsExactly("exception");
        assertThat(call.getEvents().get(0).getAttributes().asMap().keySet())
                .extracting(AttributeKey::getKey)
                .containsExactlyInAnyOrder("exception.type", "exception.message");
        SpanData runSpan = only(spans, s -> s.getName().equals("planvm.run"));
        assertThat(runSpan.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        // the step whose call started early never had its turn: its span ends, marked discarded
        SpanData discarded =
                only(spans, s -> Long.valueOf(1).equals(s.getAttributes().get(SEQ_NO)));
        assertThat(discarded.getAttributes().get(AttributeKey.booleanKey("planvm.step.discarded")))
                .isTrue();
        assertThat(spans.toString()).doesNotContain("s3cr3t-value");
        assertThat(spans).allMatch(SpanData::hasEnded);
    }

    @Test
    void a_run_waiting_for_approval_ends_every_span_it_opened() {
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("send_mail", "sends", (params, context) -> TextNode.valueOf("sent")))
                .approveTools(List.of("send_*"))
                .openTelemetry(telemetry)
                .build();

        RunResult result = run(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {}}}]""");

        assertThat(result.waiting()).isTrue();
        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData runSpan = only(spans, s -> s.getName().equals("planvm.run"));
        assertThat(runSpan.getAttributes().get(AttributeKey.stringKey("planvm.run.status")))
                .isEqualTo("waiting");
        SpanData step = only(spans, s -> s.getName().equals("planvm.step calling"));
        assertThat(step.getAttributes().get(AttributeKey.booleanKey("planvm.step.uncommitted")))
                .isTrue();
        assertThat(step.getParentSpanId()).isEqualTo(runSpan.getSpanId());
        SpanData call = only(spans, s -> s.getName().equals("execute_tool send_mail"));
        assertThat(call.getAttributes().get(AttributeKey.stringKey("planvm.call.outcome")))
                .isEqualTo("waiting_for_approval");
        // the call's context made current on this thread is closed again
        assertThat(Span.current().getSpanContext().isValid()).isFalse();
    }

    @Test
    void a_vm_without_open_telemetry_makes_no_spans_and_runs_as_before() {
        PlanVm vm =
                PlanVm.builder().tool(search(new CountDownLatch(3))).tool(llm()).build();

        RunResult result = run(vm, FAN_IN);

        assertThat(result.finalAnswer().asText()).isEqualTo("summary");
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
        assertThat(currentInTool.values()).noneMatch(SpanContext::isValid);
    }

    private static SpanData only(List<SpanData> spans, java.util.function.Predicate<SpanData> which) {
        List<SpanData> found = spans.stream().filter(which).toList();
        assertThat(found).as("spans matching in %s", spans).hasSize(1);
        return found.get(0);
    }
}
