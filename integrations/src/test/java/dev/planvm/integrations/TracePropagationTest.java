package dev.planvm.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.integrations.testing.LoopbackHttp;
import dev.planvm.integrations.testing.TestMcpServer;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A traced run's HTTP and MCP-over-HTTP calls carry their call span as W3C traceparent (real loopback peers). */
class TracePropagationTest {

    @TempDir
    Path dir;

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

    private LoadedTools load(ObjectNode config) throws Exception {
        return ToolsConfig.load(Configs.write(dir, config), Map.of(), Map.of(), Configs.providers());
    }

    private RunResult run(LoadedTools loaded, boolean traced, String tool) {
        var builder = PlanVm.builder().tools(loaded, ToolPolicy.ALLOW_ALL);
        if (traced) {
            builder.openTelemetry(telemetry);
        }
        PlanVm vm = builder.build();
        var plan = vm.loader().load("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "%s",
                          "tool_params": {"key": "q"}, "output_vars": "final_answer"}}]""".formatted(tool), "p.json").planOrThrow();
        return vm.run(plan, Map.of(), RunMode.live());
    }

    /** The traceparent the call's span makes: version, trace id, span id, flags. */
    private String callTraceparent(String spanName) {
        SpanData call = exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals(spanName))
                .findFirst()
                .orElseThrow();
        return "00-" + call.getTraceId() + "-" + call.getSpanId() + "-"
                + call.getSpanContext().getTraceFlags().asHex();
    }

    private ObjectNode httpTool(LoopbackHttp server) throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putArray("httpTools").add(Configs.JSON.readTree("""
                {"name": "lookup", "method": "GET", "url": "%s",
                 "params": {"type": "object", "properties": {"key": {"type": "string"}}}}""".formatted(server.url("/lookup/${key}"))));
        return config;
    }

    @Test
    void an_http_tool_sends_its_call_span_as_traceparent() throws Exception {
        try (LoopbackHttp server = new LoopbackHttp();
                LoadedTools loaded = load(httpTool(server))) {
            server.on("/lookup/", LoopbackHttp.json(200, "{\"v\": 1}"));

            assertThat(run(loaded, true, "lookup").status()).isEqualTo(RunStatus.SUCCEEDED);

            assertThat(server.last().header("traceparent")).isEqualTo(callTraceparent("execute_tool lookup"));
        }
    }

    @Test
    void an_untraced_run_sends_no_traceparent() throws Exception {
        try (LoopbackHttp server = new LoopbackHttp();
                LoadedTools loaded = load(httpTool(server))) {
            server.on("/lookup/", LoopbackHttp.json(200, "{\"v\": 1}"));

            assertThat(run(loaded, false, "lookup").status()).isEqualTo(RunStatus.SUCCEEDED);

            assertThat(server.last().header("traceparent")).isNull();
        }
    }

    @Test
    void an_mcp_call_over_http_sends_its_call_span_as_traceparent() throws Exception {
        TestMcpServer.TRACEPARENT.set(null);
        try (TestMcpServer.Http server = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null))) {
            ObjectNode config = Configs.JSON.createObjectNode();
            config.putObject("mcpServers").putObject("remote").put("url", server.url());
            try (LoadedTools loaded = load(config)) {
                assertThat(run(loaded, true, "remote:lookup").status()).isEqualTo(RunStatus.SUCCEEDED);

                assertThat(TestMcpServer.TRACEPARENT.get()).isEqualTo(callTraceparent("execute_tool remote:lookup"));
            }
        }
    }
}
