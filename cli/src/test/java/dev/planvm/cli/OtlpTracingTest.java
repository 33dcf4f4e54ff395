package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code planvm run} with the standard OTEL_* environment exports the run's spans over OTLP/HTTP to a
 * loopback receiver, which decodes them with the official proto classes: the tree is complete and parented.
 */
class OtlpTracingTest {

    private static final String PLAN = "../plans/stackvm-tidb-best-practices.json";
    private static final String CASSETTE = "../plans/stackvm-tidb-best-practices.cassette.json";

    private static AnyValue attribute(Span span, String key) {
        return span.getAttributesList().stream()
                .filter(kv -> kv.getKey().equals(key))
                .map(KeyValue::getValue)
                .findFirst()
                .orElse(null);
    }

    private static String text(Span span, String key) {
        AnyValue value = attribute(span, key);
        return value == null ? null : value.getStringValue();
    }

    private static Long number(Span span, String key) {
        AnyValue value = attribute(span, key);
        return value == null ? null : value.getIntValue();
    }

    @Test
    void a_replayed_run_with_concurrent_calls_exports_a_complete_correctly_parented_tree() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            CliRun run = CliRun.withEnvironment(
                    Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_SERVICE_NAME", "planvm-test"),
                    "run",
                    PLAN,
                    "--replay",
                    CASSETTE,
                    "--replay-timing");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(receiver.contentTypes).isNotEmpty().allMatch("application/x-protobuf"::equals);
            assertThat(receiver.requests
                            .get(0)
                            .getResourceSpans(0)
                            .getResource()
                            .getAttributesList())
                    .anyMatch(kv -> kv.getKey().equals("service.name")
                            && kv.getValue().getStringValue().equals("planvm-test"));
            List<Span> spans = receiver.spans();
            Map<ByteString, Span> byId = spans.stream().collect(Collectors.toMap(Span::getSpanId, Function.identity()));

            Span runSpan = only(spans, s -> s.getName().equals("planvm.run"));
            assertThat(runSpan.getParentSpanId()).isEmpty();
            assertThat(text(runSpan, "planvm.plan.name")).isEqualTo("stackvm-tidb-best-practices.json");
            assertThat(text(runSpan, "planvm.run.id")).isNotBlank();
            assertThat(text(runSpan, "planvm.run.mode")).isEqualTo("replay");
            assertThat(text(runSpan, "planvm.run.status")).isEqualTo("succeeded");
            // complete: one trace, and every parent was exported too
            assertThat(spans).allMatch(s -> s.getTraceId().equals(runSpan.getTraceId()));
            assertThat(spans)
                    .filteredOn(s -> s != runSpan)
                    .allMatch(s -> byId.containsKey(s.getParentSpanId()), "has an exported parent");

            List<Span> steps = spans.stream()
                    .filter(s -> s.getName().startsWith("planvm.step"))
                    .toList();
            assertThat(steps).hasSize(number(runSpan, "planvm.run.steps").intValue());
            assertThat(steps).allMatch(s -> s.getParentSpanId().equals(runSpan.getSpanId()));
            Map<Long, Span> stepBySeqNo =
                    steps.stream().collect(Collectors.toMap(s -> number(s, "planvm.step.seq_no"), s -> s));

            List<Span> calls = spans.stream()
                    .filter(s -> attribute(s, "planvm.call.seq_no") != null)
                    .toList();
            // the cassette's seven interactions: a graph query, two LLM calls, an LLM condition, three searches
            assertThat(calls).hasSize(7);
            for (Span call : calls) {
                Span step = stepBySeqNo.get(number(call, "planvm.call.seq_no"));
                assertThat(step).as("the step of %s", call.getName()).isNotNull();
                assertThat(call.getParentSpanId()).isEqualTo(step.getSpanId());
                assertThat(call.getStatus().getCode()).isNotEqualTo(Status.StatusCode.STATUS_CODE_ERROR);
            }
            assertThat(calls.stream().map(Span::getName).collect(Collectors.toSet()))
                    .containsExactlyInAnyOrder(
                            "execute_tool retrieve_knowledge_graph", "execute_tool vector_search", "chat");
            assertThat(calls)
                    .filteredOn(s -> s.getName().equals("chat"))
                    .hasSize(3)
                    .allMatch(s -> "chat".equals(text(s, "gen_ai.operation.name")));
            // the jmp at 5 goes to 7; the searches at 7 and 8 are independent: 8 starts before its turn,
            // beside 7, and is a child of its own step all the same (checked above)
            Map<Long, Span> searches = calls.stream()
                    .filter(s -> s.getName().equals("execute_tool vector_search"))
                    .collect(Collectors.toMap(s -> number(s, "planvm.call.seq_no"), s -> s));
            assertThat(searches).containsOnlyKeys(4L, 7L, 8L);
            assertThat(attribute(searches.get(8L), "planvm.call.early").getBoolValue())
                    .isTrue();
            assertThat(attribute(searches.get(7L), "planvm.call.early")).isNull();
            assertThat(stepBySeqNo.get(8L).getEventsList())
                    .extracting(Span.Event::getName)
                    .containsExactly("planvm.step.turn");
            // no param, prompt or answer is an attribute
            assertThat(spans.toString())
                    .doesNotContain("e-commerce applications")
                    .doesNotContain("TiDB 8.5.0 makes");
        }
    }

    @Test
    void without_the_environment_nothing_is_exported() throws Exception {
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            CliRun run = CliRun.withEnvironment(
                    Map.of("OTEL_SERVICE_NAME", "planvm-test"), "run", PLAN, "--replay", CASSETTE, "--no-store");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(receiver.requests).isEmpty();
        }
    }

    @Test
    void tracing_is_on_only_when_the_environment_asks_for_traces() {
        assertThat(Telemetry.enabled(Map.of())).isFalse();
        assertThat(Telemetry.enabled(Map.of("OTEL_SERVICE_NAME", "x"))).isFalse();
        assertThat(Telemetry.enabled(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318")))
                .isTrue();
        assertThat(Telemetry.enabled(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces")))
                .isTrue();
        assertThat(Telemetry.enabled(Map.of("OTEL_TRACES_EXPORTER", "otlp"))).isTrue();
        assertThat(Telemetry.enabled(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h", "OTEL_TRACES_EXPORTER", "none")))
                .isFalse();
        assertThat(Telemetry.enabled(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h", "OTEL_SDK_DISABLED", "true")))
                .isFalse();
    }

    private static Span only(List<Span> spans, java.util.function.Predicate<Span> which) {
        List<Span> found = spans.stream().filter(which).toList();
        assertThat(found).hasSize(1);
        return found.get(0);
    }
}
