package dev.planvm.tools.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import dev.planvm.tools.ToolSetup.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolsConfigTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Claims "greetings": {"names": [..], "loud": bool}; offers one tool per name; "bad" names are a problem. */
    static final class GreetingProvider implements ToolProvider {
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public Map<String, JsonNode> configSections() {
            return Map.of("greetings", json("""
                    {"type": "object", "additionalProperties": false, "required": ["names"],
                     "properties": {"names": {"type": "array", "items": {"type": "string"}}, "loud": {"type": "boolean"}}}"""));
        }

        @Override
        public List<Tool> tools(ToolSetup setup) {
            List<Tool> tools = new ArrayList<>();
            setup.section("greetings").ifPresent(section -> {
                setup.closeWith(() -> closed.set(true));
                JsonNode names = section.get("names");
                for (int i = 0; i < names.size(); i++) {
                    String name = names.get(i).asText();
                    if (name.equals("bad")) {
                        setup.problem("/greetings/names/" + i, "'bad' is not a greeting");
                    }
                    tools.add(Tool.of(name, "greets", (params, ctx) -> TextNode.valueOf("hello")));
                }
            });
            return tools;
        }
    }

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

    private static List<String> pointers(ToolsConfigException e) {
        return e.problems().stream().map(Problem::pointer).toList();
    }

    @Test
    void locates_the_flag_first_then_the_variable_then_planvm_json_in_the_working_directory() throws IOException {
        assertThat(ToolsConfig.locate(dir, Map.of(), null)).isEmpty();
        config("{}");
        assertThat(ToolsConfig.locate(dir, Map.of(), null)).contains(dir.resolve("planvm.json"));
        assertThat(ToolsConfig.locate(dir, Map.of("PLANVM_CONFIG", "other.json"), null))
                .contains(dir.resolve("other.json"));
        assertThat(ToolsConfig.locate(dir, Map.of("PLANVM_CONFIG", "other.json"), Path.of("flag.json")))
                .contains(dir.resolve("flag.json"));
    }

    @Test
    void refuses_a_duplicate_key_with_its_line_and_column() throws IOException {
        Path file = config("{\n  \"greetings\": {\"names\": []},\n  \"greetings\": {\"names\": []}\n}");
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of(new GreetingProvider())))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("line 3")
                .hasMessageContaining("duplicate key")
                .hasMessageContaining("greetings");
    }

    @Test
    void refuses_anything_after_the_document() throws IOException {
        Path file = config("{\"greetings\": {\"names\": []}} {}");
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of(new GreetingProvider())))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("line 1, column")
                .hasMessageContaining("more after the JSON document");
    }

    @Test
    void refuses_a_file_larger_than_the_bound_without_reading_it_whole() throws IOException {
        Path file = dir.resolve("planvm.json");
        Files.write(file, ("{\"x\": \"" + "a".repeat(ConfigReader.MAX_BYTES) + "\"}").getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of()))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("larger than 1024 KiB");
    }

    @Test
    void refuses_a_document_nested_deeper_than_the_bound() throws IOException {
        Path file = config("{\"x\": " + "[".repeat(500) + "]".repeat(500) + "}");
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of()))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("invalid JSON")
                .hasMessageContaining("depth");
    }

    @Test
    void reports_every_problem_at_once_with_pointers_and_did_you_mean() throws IOException {
        Path file = config("""
                {"greeting": {},
                 "greetings": {"names": ["hi", 7], "lowd": true},
                 "toolPaths": ["missing-dir"]}""");
        ToolsConfigException e = (ToolsConfigException) org.assertj.core.api.Assertions.catchThrowable(
                () -> ToolsConfig.load(file, Map.of(), Map.of(), List.of(new GreetingProvider())));
        assertThat(pointers(e))
                .containsExactlyInAnyOrder("/toolPaths/0", "/greeting", "/greetings/names/1", "/greetings/lowd");
        assertThat(e.getMessage())
                .contains("at /greeting: unknown key 'greeting' (did you mean 'greetings'?)")
                .contains("at /greetings/lowd: unknown key 'lowd' (did you mean 'loud'?)")
                .contains("at /toolPaths/0: the tools path 'missing-dir' does not exist");
        assertThat(e.lines()).hasSize(4);
    }

    @Test
    void reports_the_problems_a_provider_finds_in_its_section() throws IOException {
        Path file = config("{\"greetings\": {\"names\": [\"hi\", \"bad\"]}}");
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of(new GreetingProvider())))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageEndingWith("at /greetings/names/1: 'bad' is not a greeting");
    }

    @Test
    void refuses_two_tools_with_one_name_across_providers() throws IOException {
        Path file = config("{\"greetings\": {\"names\": [\"echo\"]}}");
        ToolProvider another = new ToolProvider() {
            @Override
            public List<Tool> tools(ToolSetup setup) {
                return List.of(Tool.of("echo", "", (params, ctx) -> params));
            }
        };
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of(new GreetingProvider(), another)))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("two tools are named 'echo'");
    }

    @Test
    void loads_the_tools_and_closes_what_providers_registered() throws IOException {
        Path file = config("{\"greetings\": {\"names\": [\"hi\", \"hey\"]}}");
        GreetingProvider provider = new GreetingProvider();
        LoadedTools loaded = ToolsConfig.load(file, Map.of(), Map.of(), List.of(provider));
        assertThat(loaded.tools()).extracting(Tool::name).containsExactly("hi", "hey");
        assertThat(loaded.file()).contains(file.toAbsolutePath());
        assertThat(loaded.setup().baseDirectory()).isEqualTo(dir.toAbsolutePath());
        assertThat(provider.closed).isFalse();
        loaded.close();
        assertThat(provider.closed).isTrue();
    }

    @Test
    void an_alias_yields_to_a_real_tool_and_follows_the_policy_of_its_full_name() {
        ToolProvider provider = new ToolProvider() {
            @Override
            public List<Tool> tools(ToolSetup setup) {
                return List.of(
                        Tool.of("fs:read", "", (p, c) -> p),
                        alias("read", "fs:read"),
                        Tool.of("kb:search", "", (p, c) -> p),
                        alias("search", "kb:search"),
                        Tool.of("search", "", (p, c) -> p));
            }
        };
        LoadedTools loaded = ToolsConfig.load(null, Map.of(), Map.of(), List.of(provider));
        assertThat(loaded.aliases()).containsExactly(Map.entry("read", "fs:read"));
        assertThat(loaded.unavailable()).containsKey("search");
        assertThat(loaded.tools())
                .extracting(Tool::name)
                .containsExactlyInAnyOrder("fs:read", "kb:search", "search", "read");
        assertThat(loaded.tools(ToolPolicy.of(List.of(), List.of("fs:*"))))
                .extracting(Tool::name)
                .containsExactlyInAnyOrder("fs:read", "kb:search", "search");
    }

    private static ToolAlias alias(String name, String of) {
        return new ToolAlias() {
            @Override
            public String aliasOf() {
                return of;
            }

            @Override
            public String name() {
                return name;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                return params;
            }
        };
    }
}
