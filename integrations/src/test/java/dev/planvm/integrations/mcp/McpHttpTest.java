package dev.planvm.integrations.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.integrations.testing.TestMcpServer;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SDK-written test server on Streamable HTTP at 127.0.0.1, reached with headers that name a secret. */
class McpHttpTest {

    static final String TOKEN = "tok-7f3a9c2e1b";

    @TempDir
    Path dir;

    private LoadedTools load(String url) throws Exception {
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putObject("mcpServers")
                .putObject("remote")
                .put("url", url)
                .putObject("headers")
                .put("Authorization", "Bearer ${secret:MCP_TOKEN}");
        return ToolsConfig.load(Configs.write(dir, config), Map.of(), Map.of("MCP_TOKEN", TOKEN), Configs.providers());
    }

    @Test
    void tools_of_an_http_server_are_listed_aliased_and_called_with_the_secret_header() throws Exception {
        try (TestMcpServer.Http server = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null));
                LoadedTools loaded = load(server.url())) {
            assertThat(loaded.all())
                    .extracting(Tool::name)
                    .contains("remote:lookup", "remote:write", "lookup", "write");
            assertThat(loaded.all())
                    .filteredOn(t -> t instanceof dev.planvm.tools.config.ToolAlias)
                    .extracting(t -> t.name() + "=" + ((dev.planvm.tools.config.ToolAlias) t).aliasOf())
                    .contains("lookup=remote:lookup");
            Tool lookup = loaded.all().stream()
                    .filter(t -> t.name().equals("lookup"))
                    .findFirst()
                    .orElseThrow();
            JsonNode output = lookup.invoke(Configs.JSON.readTree("{\"key\": \"q\"}"), CallContext.of(0));
            assertThat(output.path("value").asText()).isEqualTo("v-q");
            assertThat(TestMcpServer.AUTHORIZATION.get()).isEqualTo("Bearer " + TOKEN);
            assertThat(loaded.secretsUsed()).containsEntry("MCP_TOKEN", TOKEN);
        }
    }

    @Test
    void a_tool_whose_params_schema_has_a_ref_cycle_is_unavailable_with_the_reference_named() throws Exception {
        try (TestMcpServer.Http server = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null));
                LoadedTools loaded = load(server.url())) {
            assertThat(loaded.all()).extracting(Tool::name).contains("lookup").doesNotContain("remote:looping");
            assertThat(loaded.unavailable().get("remote:looping"))
                    .contains("gives this tool a params schema planvm cannot use")
                    .contains("its $ref at /properties/x/$ref leads back to /properties/x");
        }
    }

    @Test
    void a_denied_full_name_also_denies_its_alias() throws Exception {
        try (TestMcpServer.Http server = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null));
                LoadedTools loaded = load(server.url())) {
            List<Tool> allowed = loaded.resolver(ToolPolicy.of(List.of(), List.of("remote:write")))
                    .all();
            assertThat(allowed)
                    .extracting(Tool::name)
                    .contains("remote:write", "lookup")
                    .doesNotContain("write");
        }
    }

    @Test
    void a_plan_calling_a_denied_tool_by_its_bare_name_is_told_it_is_denied_not_missing() throws Exception {
        try (TestMcpServer.Http server = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null));
                LoadedTools loaded = load(server.url())) {
            PlanVm vm = PlanVm.builder()
                    .tools(loaded, ToolPolicy.of(List.of(), List.of("remote:*")))
                    .build();
            List<String> problems = vm.problems(vm.loader().load("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "write", "tool_params": {}, "output_vars": "final_answer"}}]""", "plan").planOrThrow());
            assertThat(problems)
                    .containsExactly("seq_no 0: tool 'write' is not installed (it is the bare name of 'remote:write': "
                            + "tool 'remote:write' is denied by the tool policy (deny rule 'remote:*'))");
        }
    }

    @Test
    void the_secret_header_stays_out_of_the_trace_and_the_cassette() throws Exception {
        try (TestMcpServer.Http server = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null));
                LoadedTools loaded = load(server.url())) {
            PlanVm vm = PlanVm.builder().tools(loaded, ToolPolicy.ALLOW_ALL).build();
            RunMode.Record rec = RunMode.record();
            RunResult result = vm.run(
                    vm.loader().load("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool": "remote:echo", "params": {"t": "${token}"}, "output_vars": "final_answer"}}]""", "plan").planOrThrow(),
                    Map.of("token", Configs.JSON.getNodeFactory().textNode(TOKEN)),
                    rec);
            assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
            Path cassette = dir.resolve("c.json");
            rec.recording().cassette().write(cassette);
            assertThat(result.trace().toString()).doesNotContain(TOKEN).contains("«secret:MCP_TOKEN»");
            assertThat(Files.readString(cassette)).doesNotContain(TOKEN);
        }
    }

    @Test
    void a_server_that_went_away_is_a_retriable_failure_that_names_it() throws Exception {
        TestMcpServer.Http server = TestMcpServer.startHttp(new TestMcpServer.Options(0, 0, null));
        try (LoadedTools loaded = load(server.url())) {
            Tool echo = loaded.all().stream()
                    .filter(t -> t.name().equals("remote:echo"))
                    .findFirst()
                    .orElseThrow();
            server.close();
            ToolException e = catchThrowableOfType(
                    ToolException.class, () -> echo.invoke(Configs.JSON.readTree("{}"), CallContext.of(0)));
            assertThat(e.retriable()).isTrue();
            assertThat(e.getMessage()).contains("MCP server 'remote'").doesNotContain(TOKEN);
        }
    }

    @Test
    void a_server_that_cannot_be_reached_at_load_is_reported_as_unavailable() throws Exception {
        try (LoadedTools loaded = load("http://127.0.0.1:9/mcp")) {
            assertThat(loaded.all()).isEmpty();
            assertThat(loaded.unavailable().get("remote:*")).contains("did not start");
        }
    }
}
