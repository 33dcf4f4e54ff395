package dev.planvm.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.integrations.testing.LoopbackHttp;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One precedence rule for the attempt timeout of every kind of tool: the tool's own setting
 * ({@code --tool-timeout TOOL=S}, then its {@code timeout_s} in planvm.json or a Java tool's own
 * {@code callTimeout()}) beats the run's {@code --call-timeout}, which beats the tool kind's default.
 * Each tool here takes 1.5 s to answer, against a real MCP server, a real HTTP server and a Java tool.
 * (llm_generate: {@code LlmEndToEndTest}; the defaults below the flag: {@code TimeoutPrecedenceTest}.)
 */
class CallTimeoutPrecedenceTest {

    static final long SLOW_MS = 1500;

    @TempDir
    static Path dir;

    static LoopbackHttp http;

    @BeforeAll
    static void start() throws Exception {
        http = new LoopbackHttp();
        LoopbackHttp.Answer slow = (exchange, request) -> {
            try {
                Thread.sleep(SLOW_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            LoopbackHttp.send(exchange, 200, "application/json", "{\"value\": \"slow\"}");
        };
        http.on("/slow", slow);
        http.on("/api/slow", slow);
        Files.writeString(dir.resolve("slow.yaml"), """
                openapi: 3.0.3
                info: {title: Slow, version: "1"}
                servers: [{url: "%s"}]
                paths:
                  /slow:
                    get:
                      operationId: slow
                      parameters:
                        - {name: key, in: query, schema: {type: string}}
                """.formatted(http.url("/api")));
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    enum Kind {
        MCP("svc:lookup"),
        HTTP("slow_http"),
        OPENAPI("slow"),
        JAVA("slow_java");

        final String tool;

        Kind(String tool) {
            this.tool = tool;
        }
    }

    /** One way of setting timeouts and what the call must do. */
    enum Case {
        /** Only --call-timeout 0.4: it beats the tool kind's default (HTTP's 30 s, MCP's 120 s). */
        FLAG_BEATS_THE_DEFAULT(null, 0.4, null, "timed out after 0.4 s"),
        /** The tool's own timeout of 0.4 s beats --call-timeout 10. */
        OWN_SHORTER_TIMEOUT_BEATS_THE_FLAG(0.4, 10.0, null, "timed out after 0.4 s"),
        /** The tool's own timeout of 10 s beats --call-timeout 0.4: the call answers. */
        OWN_LONGER_TIMEOUT_BEATS_THE_FLAG(10.0, 0.4, null, null),
        /** --tool-timeout TOOL=0.4 beats the tool's own 10 s. */
        TOOL_TIMEOUT_OPTION_BEATS_THE_OWN(10.0, null, 0.4, "timed out after 0.4 s");

        final Double own;
        final Double flag;
        final Double toolOption;
        final String failure;

        Case(Double own, Double flag, Double toolOption, String failure) {
            this.own = own;
            this.flag = flag;
            this.toolOption = toolOption;
            this.failure = failure;
        }
    }

    /**
     * Every case for the Java tool and one for each other kind (each MCP case starts a server); every case of
     * every kind with {@code mvn -Pslow} ({@code planvm.tests.full}).
     */
    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (Case c : Case.values()) {
                if (kind == Kind.JAVA
                        || c == Case.TOOL_TIMEOUT_OPTION_BEATS_THE_OWN
                        || Boolean.getBoolean("planvm.tests.full")) {
                    all.add(Arguments.of(kind, c));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void the_tools_own_timeout_beats_the_flag_which_beats_the_tools_default(Kind kind, Case c) throws Exception {
        try (LoadedTools loaded = load(kind, c);
                PlanVm vm = vm(kind, c, loaded)) {
            RunResult result =
                    vm.run(vm.loader().load("""
                                    [{"seq_no": 0, "type": "calling", "parameters": {"tool": "%s", "params": {"key": "k"},
                                      "output_vars": "final_answer"}}]""".formatted(kind.tool), "plan").planOrThrow(), Map.of());
            if (c.failure == null) {
                assertThat(result.status()).as(String.valueOf(result.error())).isEqualTo(RunStatus.SUCCEEDED);
            } else {
                assertThat(result.status()).isEqualTo(RunStatus.FAILED);
                assertThat(result.error().message()).containsAnyOf(c.failure, "within 0.4 s");
            }
        }
    }

    private static PlanVm vm(Kind kind, Case c, LoadedTools loaded) {
        PlanVmBuilder builder = PlanVm.builder()
                .tools(loaded, ToolPolicy.ALLOW_ALL)
                .retryPolicy(RetryPolicy.DEFAULT.withMaxAttempts(1));
        if (kind == Kind.JAVA) {
            builder.tool(new SlowTool(c.own == null ? null : seconds(c.own)));
        }
        if (c.flag != null) {
            builder.callTimeout(seconds(c.flag));
        }
        if (c.toolOption != null) {
            builder.callTimeout(kind.tool, seconds(c.toolOption));
        }
        return builder.build();
    }

    private static LoadedTools load(Kind kind, Case c) throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        switch (kind) {
            case MCP -> {
                ObjectNode server = Configs.stdioServer("--lookup-delay-ms", String.valueOf(SLOW_MS));
                if (c.own != null) {
                    server.put("timeout_s", c.own);
                }
                config.putObject("mcpServers").set("svc", server);
            }
            case HTTP -> {
                ObjectNode tool = config.putArray("httpTools")
                        .addObject()
                        .put("name", "slow_http")
                        .put("url", http.url("/slow?key=${key}"));
                if (c.own != null) {
                    tool.put("timeout_s", c.own);
                }
            }
            case OPENAPI -> {
                ObjectNode entry = config.putObject("openapi").put("spec", "slow.yaml");
                if (c.own != null) {
                    entry.put("timeout_s", c.own);
                }
            }
            case JAVA -> {
                // the tool is added to the VM
            }
        }
        Path home = Files.createDirectories(dir.resolve(kind + "-" + c));
        Files.copy(dir.resolve("slow.yaml"), home.resolve("slow.yaml"));
        return ToolsConfig.load(Configs.write(home, config), Map.of(), Map.of(), Configs.providers());
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis(Math.round(s * 1000));
    }

    /** A Java tool that answers after 1.5 s, with its own timeout when given one. */
    private record SlowTool(Duration own) implements Tool {
        @Override
        public String name() {
            return Kind.JAVA.tool;
        }

        @Override
        public Optional<Duration> callTimeout() {
            return Optional.ofNullable(own);
        }

        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            try {
                Thread.sleep(SLOW_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new dev.planvm.tools.ToolException("interrupted", false, e);
            }
            return params;
        }
    }
}
