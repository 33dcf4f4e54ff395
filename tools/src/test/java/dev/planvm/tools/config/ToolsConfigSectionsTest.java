package dev.planvm.tools.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a configuration's sections become: planTools directories, command-line overrides merged into
 * the file's sections, what providers name unavailable, and the problems a section's schema finds.
 */
class ToolsConfigSectionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path config(String text) throws IOException {
        Path file = dir.resolve("planvm.json");
        Files.writeString(file, text);
        return file;
    }

    /** Claims "server": {"url", "port", "mode", "tags": [string], "proxy": {...}}; offers what it is told. */
    static final class ServerProvider implements ToolProvider {
        final List<JsonNode> seen = new ArrayList<>();
        final AtomicBoolean closed = new AtomicBoolean();
        final List<Tool> offered = new ArrayList<>();
        final Map<String, String> unavailable;
        final ConditionEvaluator conditions;
        boolean claims = true;

        ServerProvider(Map<String, String> unavailable, ConditionEvaluator conditions) {
            this.unavailable = unavailable;
            this.conditions = conditions;
        }

        ServerProvider() {
            this(Map.of(), null);
        }

        @Override
        public Map<String, JsonNode> configSections() {
            if (!claims) {
                return Map.of();
            }
            return Map.of("server", json("""
                    {"type": "object", "additionalProperties": false,
                     "properties": {"url": {"type": "string"}, "port": {"type": "integer"},
                                    "mode": {"type": "string"},
                                    "tags": {"type": "array", "items": {"type": "string"}},
                                    "proxy": {"type": "object", "additionalProperties": false,
                                              "properties": {"host": {"type": "string"}, "user": {"type": "string"}}}}}"""));
        }

        @Override
        public List<Tool> tools(ToolSetup setup) {
            setup.section("server").ifPresent(seen::add);
            setup.closeWith(() -> closed.set(true));
            return offered;
        }

        @Override
        public Map<String, String> unavailable(Map<String, String> environment) {
            return unavailable;
        }

        @Override
        public Optional<ConditionEvaluator> conditionEvaluator(Map<String, String> environment) {
            return Optional.ofNullable(conditions);
        }
    }

    private static List<String> lines(Path file, List<ToolProvider> providers, Map<String, JsonNode> overrides) {
        ToolsConfigException e = catchThrowableOfType(
                ToolsConfigException.class,
                () -> ToolsConfig.load(file, Map.of(), Map.of(), providers, List.of(), overrides));
        assertThat(e).as("the configuration is refused").isNotNull();
        return e.problems().stream().map(p -> p.pointer() + ": " + p.message()).toList();
    }

    @Test
    void plan_tool_directories_are_resolved_against_the_directory_of_the_file() throws IOException {
        Path file = config("{\"planTools\": [\"plans\", \"/abs/tools\"]}");
        try (LoadedTools loaded = ToolsConfig.load(file, Map.of(), Map.of(), List.of())) {
            assertThat(loaded.planToolDirs()).containsExactly(dir.resolve("plans"), Path.of("/abs/tools"));
        }
    }

    @Test
    void plan_tools_that_are_not_an_array_of_directories_are_problems_with_their_pointers() throws IOException {
        assertThat(lines(config("{\"planTools\": \"plans\"}"), List.of(), Map.of()))
                .containsExactly("/planTools: must be an array of directories of plan tools, not a string");
        assertThat(lines(config("{\"planTools\": [\"ok\", 3, \" \"]}"), List.of(), Map.of()))
                .containsExactly(
                        "/planTools/1: must be a directory of plan tools, not a number",
                        "/planTools/2: must be a directory of plan tools, not a string");
    }

    @Test
    void approve_tools_globs_come_through_beside_plan_tools() throws IOException {
        Path file = config("{\"approveTools\": [\"send_*\", \"pay\"], \"planTools\": [\"p\"]}");
        try (LoadedTools loaded = ToolsConfig.load(file, Map.of(), Map.of(), List.of())) {
            assertThat(loaded.approveTools()).containsExactly("send_*", "pay");
            assertThat(loaded.planToolDirs()).containsExactly(dir.resolve("p"));
        }
    }

    @Test
    void an_object_override_sets_keys_of_the_files_section_and_keeps_its_other_keys() throws IOException {
        Path file = config("{\"server\": {\"url\": \"http://127.0.0.1:1\", \"port\": 1}}");
        ServerProvider provider = new ServerProvider();
        try (LoadedTools loaded = ToolsConfig.load(
                file, Map.of(), Map.of(), List.of(provider), List.of(), Map.of("server", json("{\"port\": 2}")))) {
            assertThat(provider.seen).containsExactly(json("{\"url\": \"http://127.0.0.1:1\", \"port\": 2}"));
            assertThat(loaded.file()).contains(file.toAbsolutePath());
        }
    }

    @Test
    void an_array_override_adds_to_the_files_array_and_any_other_replaces_the_key() throws IOException {
        Path file = config("{\"planTools\": [\"a\"], \"server\": {\"url\": \"x\"}}");
        ServerProvider provider = new ServerProvider();
        try (LoadedTools loaded = ToolsConfig.load(
                file,
                Map.of(),
                Map.of(),
                List.of(provider),
                List.of(),
                Map.of("planTools", json("[\"b\"]"), "server", json("{\"tags\": [\"t\"]}")))) {
            assertThat(loaded.planToolDirs()).containsExactly(dir.resolve("a"), dir.resolve("b"));
            assertThat(provider.seen).containsExactly(json("{\"url\": \"x\", \"tags\": [\"t\"]}"));
        }
        Path arrayInFile = config("{\"planTools\": [\"a\"]}");
        assertThat(lines(arrayInFile, List.of(), Map.of("planTools", json("\"c\""))))
                .containsExactly("/planTools: must be an array of directories of plan tools, not a string");
    }

    @Test
    void overrides_apply_without_a_file_and_are_checked_like_the_files_sections() {
        ServerProvider provider = new ServerProvider();
        try (LoadedTools loaded = ToolsConfig.load(
                null, Map.of(), Map.of(), List.of(provider), List.of(), Map.of("server", json("{\"port\": 7}")))) {
            assertThat(provider.seen).containsExactly(json("{\"port\": 7}"));
            assertThat(loaded.file()).isEmpty();
        }
        assertThat(lines(null, List.of(new ServerProvider()), Map.of("server", json("{\"prot\": 7}"))))
                .containsExactly(
                        "/server/prot: unknown key 'prot' (did you mean 'port'?); known keys: url, port, mode, tags, proxy");
    }

    @Test
    void a_name_one_provider_calls_unavailable_is_dropped_when_another_offers_it_and_the_first_evaluator_wins() {
        ConditionEvaluator first = (prompt, context, call) -> null;
        ConditionEvaluator second = (prompt, context, call) -> null;
        ServerProvider naming = new ServerProvider(Map.of("mail", "no MAIL_TOKEN", "sms", "no SMS_TOKEN"), first);
        ServerProvider offering = new ServerProvider(Map.of(), second);
        offering.claims = false;
        offering.offered.add(Tool.of("mail", "sends mail", (params, ctx) -> TextNode.valueOf("sent")));
        try (LoadedTools loaded =
                ToolsConfig.load(null, Map.of(), Map.of(), List.of(naming, offering), List.of(), Map.of())) {
            assertThat(loaded.unavailable()).containsExactly(Map.entry("sms", "no SMS_TOKEN"));
            assertThat(loaded.conditionEvaluator()).containsSame(first);
            assertThat(loaded.tools()).extracting(Tool::name).containsExactly("mail");
        }
    }

    @Test
    void a_refused_configuration_closes_what_the_providers_had_set_up() {
        ServerProvider provider = new ServerProvider();
        ServerProvider twin = new ServerProvider();
        provider.offered.add(Tool.of("t", "", (params, ctx) -> BooleanNode.TRUE));
        twin.claims = false;
        twin.offered.add(Tool.of("t", "", (params, ctx) -> BooleanNode.FALSE));
        assertThatThrownBy(() -> ToolsConfig.load(null, Map.of(), Map.of(), List.of(provider, twin)))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("two tools are named 't'");
        assertThat(provider.closed).isTrue();
        assertThat(twin.closed).isTrue();
    }

    @Test
    void an_unknown_key_inside_a_nested_object_is_offered_the_keys_of_that_object() throws IOException {
        Path file = config("{\"server\": {\"proxy\": {\"hots\": \"h\"}}}");
        assertThat(lines(file, List.of(new ServerProvider()), Map.of()))
                .containsExactly(
                        "/server/proxy/hots: unknown key 'hots' (did you mean 'host'?); known keys: host, user");
    }

    @Test
    void a_schema_message_is_given_without_networknts_leading_instance_path() throws IOException {
        Path file = config("{\"server\": {\"port\": \"eighty\"}}");
        List<String> lines = lines(file, List.of(new ServerProvider()), Map.of());
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0))
                .startsWith("/server/port: ")
                .doesNotContain("$")
                .contains("integer");
    }

    @Test
    void a_section_reports_at_most_fifty_problems() throws IOException {
        StringBuilder tags = new StringBuilder("[");
        for (int i = 0; i < 60; i++) {
            tags.append(i == 0 ? "" : ", ").append(i);
        }
        Path file = config("{\"server\": {\"tags\": " + tags + "]}}");
        List<String> lines = lines(file, List.of(new ServerProvider()), Map.of());
        assertThat(lines).hasSize(50);
        assertThat(lines.get(0)).startsWith("/server/tags/0: ");
        assertThat(lines.get(49)).startsWith("/server/tags/49: ");
    }
}
