package dev.planvm.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.tools.Tool;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The configuration shape of the issue, as written there, loads with the providers found on the class path. */
class IssueExampleTest {

    @TempDir
    Path dir;

    @Test
    void the_documented_example_loads_and_says_what_it_cannot_offer_here() throws Exception {
        for (String name : new String[] {"planvm.json", "service.json"}) {
            try (var in = getClass().getResourceAsStream("/issue-example/" + name)) {
                Files.write(dir.resolve(name), in.readAllBytes());
            }
        }
        Files.createDirectories(dir.resolve("tools"));
        Path file = ToolsConfig.locate(dir, Map.of(), null).orElseThrow();
        try (LoadedTools loaded = ToolsConfig.load(
                file,
                Map.of(),
                Map.of("CITY_TOKEN", "city-secret", "MCP_TOKEN", "mcp-secret"),
                ToolsConfig.classPathProviders())) {
            assertThat(loaded.tools()).extracting(Tool::name).contains("lookup", "searchDocs");
            assertThat(loaded.all())
                    .noneMatch(
                            tool -> tool.name().startsWith("fs:") || tool.name().startsWith("remote:"));
            assertThat(loaded.unavailable()).containsKeys("fs:*", "remote:*");
            Tool lookup = loaded.tools().stream()
                    .filter(t -> t.name().equals("lookup"))
                    .findFirst()
                    .orElseThrow();
            assertThat(lookup.maxAttempts()).hasValue(4);
            assertThat(loaded.secretsUsed()).containsKeys("CITY_TOKEN", "MCP_TOKEN");
        }
    }
}
