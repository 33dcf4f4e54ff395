package dev.planvm.integrations.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MCP servers started as stdio subprocesses (the SDK-written test server in a new JVM). */
class McpStdioTest {

    @TempDir
    static Path dir;

    static LoadedTools loaded;

    @BeforeAll
    static void startServers() throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        ObjectNode servers = config.putObject("mcpServers");
        // svc and slow serve only once both are starting: with servers started one after the other, neither would
        String together = dir.resolve("together/2").toString();
        servers.set("svc", Configs.stdioServer("--rendezvous", together));
        servers.set("slow", Configs.stdioServer("--start-delay-ms", "1500", "--rendezvous", together));
        servers.set("tooslow", Configs.stdioServer("--start-delay-ms", "8000").put("start_timeout_s", 1));
        servers.putObject("broken").put("command", dir.resolve("no-such-server").toString());
        servers.set("crashy", Configs.stdioServer());
        loaded = ToolsConfig.load(Configs.write(dir, config), Map.of(), Map.of(), Configs.providers());
    }

    @AfterAll
    static void stopServers() {
        if (loaded != null) {
            loaded.close();
        }
    }

    private static Tool tool(String name) {
        return loaded.all().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no tool " + name + " in " + loaded.all()));
    }

    private static JsonNode call(String name, String params) throws Exception {
        return tool(name).invoke(Configs.JSON.readTree(params), CallContext.of(1));
    }

    @Test
    void every_tool_a_server_lists_is_callable_as_server_colon_tool_with_the_servers_schema() throws Exception {
        assertThat(loaded.all())
                .extracting(Tool::name)
                .contains("svc:lookup", "svc:write", "svc:echo", "svc:fail", "slow:lookup", "crashy:crash");
        assertThat(tool("svc:lookup").paramsSchema())
                .isEqualTo(
                        Configs.JSON.readTree(
                                "{\"type\": \"object\", \"properties\": {\"key\": {\"type\": \"string\"}}, \"required\": [\"key\"]}"));
        assertThat(tool("svc:lookup").description()).isEqualTo("Looks a key up (read-only, slow).");
    }

    @Test
    void a_bare_name_listed_by_several_servers_is_no_alias() {
        assertThat(loaded.aliases()).isEmpty();
        assertThat(loaded.all()).extracting(Tool::name).doesNotContain("lookup");
    }

    @Test
    void read_only_tools_may_start_early_and_every_other_tool_has_side_effects() {
        assertThat(tool("svc:lookup").hasSideEffects()).isFalse();
        assertThat(tool("svc:write").hasSideEffects()).isTrue();
        assertThat(tool("svc:echo").hasSideEffects())
                .as("no annotations: not read-only")
                .isTrue();
    }

    @Test
    void a_tool_that_is_not_read_only_is_destructive_unless_the_server_says_otherwise() {
        assertThat(tool("svc:write").isDestructive())
                .as("destructiveHint: true")
                .isTrue();
        assertThat(tool("svc:echo").isDestructive())
                .as("no annotations: MCP's default")
                .isTrue();
        assertThat(tool("svc:lookup").isDestructive()).as("read-only").isFalse();
        assertThat(tool("svc:lookup").hosts())
                .as("a stdio server reaches no host")
                .isEmpty();
    }

    @Test
    void a_tool_whose_name_a_plan_cannot_call_is_reported_not_dropped() {
        loaded.all();
        assertThat(loaded.unavailable()).containsKey("svc:bad name");
        assertThat(loaded.unavailable().get("svc:bad name")).contains("which a plan cannot call");
    }

    @Test
    void servers_that_fail_to_start_are_reported_with_why_and_the_others_work() throws Exception {
        loaded.all();
        assertThat(loaded.unavailable().get("tooslow:*")).contains("did not answer 'initialize' within 1 s");
        assertThat(loaded.unavailable().get("broken:*"))
                .contains("did not start")
                .contains("cannot run")
                .contains("no-such-server");
        assertThat(loaded.all())
                .extracting(Tool::name)
                .noneMatch(name -> name.startsWith("tooslow:") || name.startsWith("broken:"));
        assertThat(call("svc:echo", "{\"a\": 1}")).isEqualTo(Configs.JSON.readTree("{\"a\": 1}"));
    }

    @Test
    void a_server_slow_to_start_is_waited_for_and_servers_start_in_parallel() throws Exception {
        assertThat(call("slow:lookup", "{\"key\": \"k\"}").path("value").asText())
                .isEqualTo("v-k");
        // svc and slow met while starting (--rendezvous): the servers start together, not one after the other
        assertThat(loaded.unavailable()).doesNotContainKeys("svc:*", "slow:*");
        assertThat(call("svc:echo", "{\"a\": 1}")).isEqualTo(Configs.JSON.readTree("{\"a\": 1}"));
    }

    @Test
    void structured_content_is_the_output_and_text_is_parsed_as_json_when_it_is_json() throws Exception {
        assertThat(call("svc:lookup", "{\"key\": \"paris\"}"))
                .isEqualTo(Configs.JSON.readTree("{\"key\": \"paris\", \"value\": \"v-paris\"}"));
        assertThat(call("svc:echo", "{\"n\": [1, 2]}")).isEqualTo(Configs.JSON.readTree("{\"n\": [1, 2]}"));
        assertThat(call("svc:write", "{\"key\": \"k\"}").asText()).isEqualTo("wrote k");
    }

    @Test
    void an_is_error_result_is_a_tool_failure_carrying_the_servers_text() {
        ToolException e = catchThrowableOfType(ToolException.class, () -> call("svc:fail", "{\"key\": \"x\"}"));
        assertThat(e.getMessage()).isEqualTo("the MCP server reported an error: no such record: x");
        assertThat(e.retriable()).isFalse();
    }

    @Test
    void a_server_that_dies_mid_call_fails_the_call_retriably_is_restarted_once_and_then_given_up() throws Exception {
        ToolException died = catchThrowableOfType(ToolException.class, () -> call("crashy:crash", "{}"));
        assertThat(died.retriable()).isTrue();
        assertThat(died.getMessage())
                .contains("stopped during the call of tool 'crash'")
                .contains("exited with code 3")
                .contains("crashing on purpose");

        assertThat(call("crashy:echo", "{\"after\": \"restart\"}").path("after").asText())
                .isEqualTo("restart");

        ToolException again = catchThrowableOfType(ToolException.class, () -> call("crashy:crash", "{}"));
        assertThat(again.retriable()).isTrue();
        ToolException final_ = catchThrowableOfType(ToolException.class, () -> call("crashy:echo", "{}"));
        assertThat(final_.retriable()).isFalse();
        assertThat(final_.getMessage()).contains("stopped again after planvm restarted it once");
    }
}
