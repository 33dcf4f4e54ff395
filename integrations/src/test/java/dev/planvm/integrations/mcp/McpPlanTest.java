package dev.planvm.integrations.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans calling MCP tools on the real VM: early starts, barriers, restarts under the retry policy, record and replay. */
class McpPlanTest {

    static final long LOOKUP_MS = 700;

    @TempDir
    static Path dir;

    static LoadedTools loaded;
    static PlanVm vm;

    @BeforeAll
    static void startServer() throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putObject("mcpServers")
                .set(
                        "svc",
                        Configs.stdioServer(
                                "--lookup-delay-ms",
                                String.valueOf(LOOKUP_MS),
                                "--marker",
                                dir.resolve("crashed-once").toString()));
        loaded = ToolsConfig.load(Configs.write(dir, config), Map.of(), Map.of(), Configs.providers());
        vm = PlanVm.builder()
                .tools(loaded, ToolPolicy.ALLOW_ALL)
                .retrySleeper(wait -> {})
                .build();
    }

    @AfterAll
    static void stopServer() {
        if (loaded != null) {
            loaded.close();
        }
    }

    private static Plan plan(String json) {
        return vm.loader().load(json, "test-plan").planOrThrow();
    }

    private static JsonNode step(RunResult result, int seqNo) {
        for (JsonNode step : result.trace().path("steps")) {
            if (step.path("seq_no").asInt() == seqNo) {
                return step;
            }
        }
        throw new AssertionError("no step " + seqNo + " in " + result.trace());
    }

    private static double end(JsonNode step) {
        return step.path("start_ms").asDouble() + step.path("duration_ms").asDouble();
    }

    @Test
    void independent_read_only_calls_overlap_so_the_wall_time_is_near_the_longest_not_the_sum() {
        RunResult result = vm.run(plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "svc:lookup", "params": {"key": "a"}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool": "lookup", "params": {"key": "b"}, "output_vars": "b"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool": "svc:lookup", "params": {"key": "c"}, "output_vars": "c"}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${a.value + b.value + c.value}"}}]"""), Map.of());
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("v-av-bv-c");
        double span = end(step(result, 2)) - step(result, 0).path("start_ms").asDouble();
        assertThat(span).as("three %d ms lookups took %.0f ms", LOOKUP_MS, span).isLessThan(LOOKUP_MS * 2.2);
    }

    @Test
    void a_destructive_call_is_a_barrier_that_later_read_only_calls_do_not_start_before() {
        RunResult result = vm.run(plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "svc:write", "params": {"key": "w"}, "output_vars": "w"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool": "svc:lookup", "params": {"key": "x"}, "output_vars": "x"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${w} then ${x.value}"}}]"""), Map.of());
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("wrote w then v-x");
        JsonNode lookup = step(result, 1);
        assertThat(lookup.path("start_ms").asDouble()).isGreaterThanOrEqualTo(end(step(result, 0)) - 1);
        assertThat(lookup.path("duration_ms").asDouble())
                .as("the lookup ran after the write, whole")
                .isGreaterThanOrEqualTo(LOOKUP_MS * 0.9);
    }

    @Test
    void an_is_error_result_fails_the_run_with_the_servers_text() {
        RunResult result = vm.run(plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "svc:fail", "params": {"key": "k9"}, "output_vars": "x"}}]"""), Map.of());
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isZero();
        assertThat(result.error().message()).contains("no such record: k9");
    }

    @Test
    void params_that_do_not_fit_the_servers_schema_are_refused_before_the_call() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> vm.run(plan("""
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool": "svc:lookup", "params": {"id": 1}, "output_vars": "x"}}]"""), Map.of()))
                .as("written out, before the run starts: the server's schema is known once it runs")
                .isInstanceOf(dev.planvm.vm.PlanRejectedException.class)
                .hasMessage("seq_no 0 at /0/parameters: params do not fit the schema of tool 'svc:lookup': required"
                        + " property 'key' not found");
        RunResult result = vm.run(plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "svc:lookup", "params": {"key": "${k}"}, "output_vars": "x"}}]"""), Map.of("k", com.fasterxml.jackson.databind.node.IntNode.valueOf(1)));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().message())
                .contains("params do not fit the schema of tool 'svc:lookup'")
                .contains("key");
    }

    @Test
    void a_server_that_crashes_mid_call_is_restarted_and_the_call_retried_by_the_retry_policy() {
        RunResult result = vm.run(plan("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "svc:crash_once", "params": {}, "output_vars": "final_answer"}}]"""), Map.of());
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("survived");
        JsonNode attempts = step(result, 0).path("inputs").path("attempts");
        assertThat(attempts).hasSize(1);
        assertThat(attempts.get(0).path("error").asText())
                .contains("exited with code 3")
                .contains("crashing once");
    }

    @Test
    void a_cassette_recorded_against_the_server_replays_with_the_server_absent() throws Exception {
        String json = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "svc:echo", "params": {"q": "hi"}, "output_vars": "e"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool": "svc:lookup", "params": {"key": "${e.q}"}, "output_vars": "l"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${l.value}"}}]""";
        Plan plan = plan(json);
        RunMode.Record rec = RunMode.record();
        RunResult recorded = vm.run(plan, Map.of(), rec);
        assertThat(recorded.succeeded()).as(String.valueOf(recorded.error())).isTrue();
        Path cassette = dir.resolve("mcp.cassette.json");
        rec.recording().cassette().write(cassette);

        ObjectNode absent = Configs.JSON.createObjectNode();
        absent.putObject("mcpServers")
                .putObject("svc")
                .put("command", dir.resolve("server-not-installed").toString());
        Path elsewhere = java.nio.file.Files.createDirectories(dir.resolve("offline"));
        try (LoadedTools without =
                ToolsConfig.load(Configs.write(elsewhere, absent), Map.of(), Map.of(), Configs.providers())) {
            PlanVm offline =
                    PlanVm.builder().tools(without, ToolPolicy.ALLOW_ALL).build();
            Plan again = offline.loader().load(json, "replayed-plan").planOrThrow();
            RunResult replayed = offline.run(again, Map.of(), RunMode.replay(Cassette.read(cassette), false));
            assertThat(replayed.succeeded())
                    .as(String.valueOf(replayed.error()))
                    .isTrue();
            assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());
        }
    }

    @Test
    void a_server_starts_only_when_a_plan_first_calls_one_of_its_tools() throws Exception {
        Path started = dir.resolve("lazy-started");
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putObject("mcpServers").set("lazy", Configs.stdioServer("--started", started.toString()));
        java.nio.file.Path elsewhere = java.nio.file.Files.createDirectories(dir.resolve("lazy"));
        try (LoadedTools lazy =
                        ToolsConfig.load(Configs.write(elsewhere, config), Map.of(), Map.of(), Configs.providers());
                PlanVm vm = PlanVm.builder().tools(lazy, ToolPolicy.ALLOW_ALL).build()) {
            RunResult none = vm.run(vm.loader().load("""
                    [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": 1}}]""", "p").planOrThrow(), Map.of());
            assertThat(none.succeeded()).isTrue();
            assertThat(started).doesNotExist();
            Plan calling = vm.loader().load("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool": "lazy:lookup", "params": {"key": "k"},
                      "output_vars": "final_answer"}}]""", "p").planOrThrow();
            Cassette answers = Cassette.fromJson(Configs.JSON.readTree("""
                    {"format": "planvm-cassette/1", "interactions": [{"type": "tool", "tool": "lazy:lookup",
                      "params": {"key": "k"}, "output": "from the cassette", "duration_ms": 1}]}"""), "c");
            RunResult replayed = vm.run(calling, Map.of(), RunMode.replay(answers, false));
            assertThat(replayed.finalAnswer().asText()).isEqualTo("from the cassette");
            assertThat(started).as("a replay starts no server").doesNotExist();
            RunResult called = vm.run(calling, Map.of());
            assertThat(called.succeeded()).as(String.valueOf(called.error())).isTrue();
            assertThat(started).exists();
        }
    }
}
