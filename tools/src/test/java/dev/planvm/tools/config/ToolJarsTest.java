package dev.planvm.tools.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tool jars: a provider compiled here, packed in a jar that is not on the class path, found through toolPaths. */
class ToolJarsTest {

    @TempDir
    static Path dir;

    static Path jar;

    @BeforeAll
    static void buildAToolJar() throws IOException {
        Path src = dir.resolve("src/jarred/JarProvider.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, """
                package jarred;
                import com.fasterxml.jackson.databind.JsonNode;
                import com.fasterxml.jackson.databind.node.JsonNodeFactory;
                import com.fasterxml.jackson.databind.node.TextNode;
                import dev.planvm.tools.Tool;
                import dev.planvm.tools.ToolSetup;
                import java.util.List;
                import java.util.Map;
                public class JarProvider implements dev.planvm.tools.ToolProvider {
                    @Override public Map<String, JsonNode> configSections() {
                        return Map.of("jarred", JsonNodeFactory.instance.objectNode().put("type", "object"));
                    }
                    @Override public List<Tool> tools(ToolSetup setup) {
                        String greeting = setup.section("jarred").map(s -> s.path("greeting").asText("hello")).orElse("hello");
                        return List.of(Tool.of("jar_tool", "from a jar", (params, ctx) -> TextNode.valueOf(greeting)));
                    }
                }
                """);
        Path classes = dir.resolve("classes");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(
                null,
                null,
                null,
                "-d",
                classes.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "--release",
                "17",
                src.toString());
        assertThat(status).isZero();
        jar = dir.resolve("jars/jarred.jar");
        Files.createDirectories(jar.getParent());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("jarred/JarProvider.class"));
            out.write(Files.readAllBytes(classes.resolve("jarred/JarProvider.class")));
            out.putNextEntry(new JarEntry("META-INF/services/dev.planvm.tools.ToolProvider"));
            out.write("jarred.JarProvider\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void loads_the_providers_of_the_jars_in_a_tools_directory_and_their_sections() throws IOException {
        Path file = dir.resolve("planvm.json");
        Files.writeString(file, "{\"toolPaths\": [\"jars/\"], \"jarred\": {\"greeting\": \"hi from the jar\"}}");
        try (LoadedTools loaded = ToolsConfig.load(file, Map.of(), Map.of(), List.of())) {
            Tool tool = loaded.tools().get(0);
            assertThat(tool.name()).isEqualTo("jar_tool");
            assertThatThrownBy(() -> Class.forName("jarred.JarProvider")).isInstanceOf(ClassNotFoundException.class);
            assertThat(tool.invoke(JsonNodeFactory.instance.objectNode(), CallContext.of(0))
                            .asText())
                    .isEqualTo("hi from the jar");
        }
    }

    @Test
    void loads_a_jar_given_as_an_extra_tools_path_without_a_configuration_file() {
        try (LoadedTools loaded = ToolsConfig.load(null, Map.of(), Map.of(), List.of(), List.of(jar))) {
            assertThat(loaded.tools()).extracting(Tool::name).containsExactly("jar_tool");
        }
    }

    @Test
    void a_section_of_a_jar_provider_is_unknown_without_the_jar() throws IOException {
        Path file = dir.resolve("no-jar.json");
        Files.writeString(file, "{\"jarred\": {}}");
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of()))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("at /jarred: unknown key 'jarred'");
    }

    @Test
    void a_path_that_is_not_a_jar_is_a_problem() throws IOException {
        Path text = dir.resolve("notes.txt");
        try (OutputStream out = Files.newOutputStream(text)) {
            out.write('x');
        }
        assertThatThrownBy(() -> ToolsConfig.load(null, Map.of(), Map.of(), List.of(), List.of(text)))
                .isInstanceOf(ToolsConfigException.class)
                .hasMessageContaining("is neither a directory nor a .jar file");
    }
}
