package dev.planvm.tools.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolResolver;
import dev.planvm.tools.ToolSetup;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tools a configuration declares: a policy hides the bare names of tools it denies, at load and later. */
class LoadedToolsTest {

    private record Alias(String name, String aliasOf) implements ToolAlias {
        @Override
        public JsonNode invoke(JsonNode params, CallContext context) {
            return TextNode.valueOf(aliasOf);
        }
    }

    private static Tool tool(String name) {
        return Tool.of(name, "", (p, c) -> TextNode.valueOf(name));
    }

    /** Sets up the tools of "mail" on first use. */
    private static final ToolResolver MAIL = new ToolResolver() {
        @Override
        public Optional<Tool> resolve(String name) {
            return switch (name) {
                case "mail:send" -> Optional.of(tool("mail:send"));
                case "send" -> Optional.of(new Alias("send", "mail:send"));
                default -> Optional.empty();
            };
        }

        @Override
        public List<Tool> all() {
            return List.of(tool("mail:send"), new Alias("send", "mail:send"));
        }

        @Override
        public Map<String, String> unavailable() {
            return Map.of("slow:*", "did not start");
        }
    };

    private static LoadedTools loaded(ToolSetup setup) {
        setup.resolveWith(MAIL);
        return new LoadedTools(
                Path.of("planvm.json"),
                List.of(tool("fs:read"), new Alias("read", "fs:read"), tool("clock")),
                Map.of("read", "fs:read"),
                Map.of("llm_generate", "no LLM is configured"),
                null,
                setup,
                List.of("mail:*"),
                List.of());
    }

    private static final ToolPolicy NO_FS_NO_MAIL = ToolPolicy.of(List.of(), List.of("fs:*", "mail:*"));

    @Test
    void what_it_holds() {
        LoadedTools loaded = loaded(ToolSetup.of(Map.of()));
        assertThat(loaded.file()).contains(Path.of("planvm.json"));
        assertThat(loaded.approveTools()).containsExactly("mail:*");
        assertThat(loaded.aliases()).containsEntry("read", "fs:read");
        assertThat(loaded.conditionEvaluator()).isEmpty();
        assertThat(loaded.tools()).extracting(Tool::name).containsExactly("fs:read", "read", "clock");
    }

    @Test
    void a_policy_that_denies_a_tool_hides_its_bare_name_too() {
        LoadedTools loaded = loaded(ToolSetup.of(Map.of()));
        assertThat(loaded.tools(NO_FS_NO_MAIL)).extracting(Tool::name).containsExactly("fs:read", "clock");
        assertThat(loaded.tools(ToolPolicy.ALLOW_ALL)).hasSize(3);
    }

    @Test
    void the_resolver_finds_tools_set_up_on_first_use_and_says_why_a_denied_bare_name_is_not_there() {
        LoadedTools loaded = loaded(ToolSetup.of(Map.of()));
        ToolResolver open = loaded.resolver(ToolPolicy.ALLOW_ALL);
        assertThat(open.resolve("send")).map(Tool::name).contains("send");
        assertThat(open.resolve("nothing")).isEmpty();
        assertThat(open.all()).extracting(Tool::name).containsExactly("mail:send", "send");

        ToolResolver closed = loaded.resolver(NO_FS_NO_MAIL);
        assertThat(closed.resolve("mail:send"))
                .as("the VM refuses full names itself")
                .isPresent();
        assertThat(closed.resolve("send")).isEmpty();
        assertThat(closed.all()).extracting(Tool::name).containsExactly("mail:send");
        assertThat(closed.unavailable())
                .containsEntry("slow:*", "did not start")
                .containsKey("send")
                .containsKey("read");
        assertThat(closed.unavailable().get("send"))
                .startsWith("it is the bare name of 'mail:send': tool 'mail:send' is denied by the tool policy");
    }

    @Test
    void all_sets_everything_up_once_by_name_and_unavailable_joins_what_the_resolvers_say() {
        LoadedTools loaded = loaded(ToolSetup.of(Map.of()));
        assertThat(loaded.all())
                .extracting(Tool::name)
                .containsExactly("fs:read", "read", "clock", "mail:send", "send");
        assertThat(loaded.unavailable())
                .containsOnlyKeys("llm_generate", "slow:*")
                .containsEntry("slow:*", "did not start");
    }

    @Test
    void it_reports_the_secrets_read_and_closes_what_the_setup_holds() {
        ToolSetup setup = new ToolSetup(Map.of("KEY", "value-12345678"), Map.of(), Path.of(""), Map.of());
        setup.secret("KEY");
        boolean[] closed = {false};
        setup.closeWith(() -> closed[0] = true);
        LoadedTools loaded = loaded(setup);
        assertThat(loaded.secretsUsed()).containsEntry("KEY", "value-12345678");
        assertThat(loaded.setup()).isSameAs(setup);
        loaded.close();
        assertThat(closed[0]).isTrue();
        ConditionEvaluator never = (prompt, context, call) -> null;
        LoadedTools withConditions = new LoadedTools(
                null, List.of(), Map.of(), Map.of(), never, ToolSetup.of(Map.of()), List.of(), List.of());
        assertThat(withConditions.conditionEvaluator()).containsSame(never);
        assertThat(withConditions.file()).isEmpty();
    }
}
