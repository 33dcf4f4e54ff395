package dev.planvm.tools.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.tools.ToolSetup.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code approveTools} key of the tools configuration: tool globs whose calls need a reviewer's approval. */
class ApproveToolsConfigTest {

    @TempDir
    Path dir;

    private Path config(String text) throws IOException {
        return Files.writeString(dir.resolve("planvm.json"), text);
    }

    @Test
    void the_globs_are_read_and_offered_with_the_tools() throws IOException {
        try (LoadedTools loaded = ToolsConfig.load(
                config("{\"approveTools\": [\"send_*\", \"mail:*\"]}"), Map.of(), Map.of(), List.of())) {
            assertThat(loaded.approveTools()).containsExactly("send_*", "mail:*");
        }
        try (LoadedTools none = ToolsConfig.load(config("{}"), Map.of(), Map.of(), List.of())) {
            assertThat(none.approveTools()).isEmpty();
        }
    }

    @Test
    void malformed_globs_are_problems_with_their_pointers_and_a_typo_gets_a_did_you_mean() throws IOException {
        Path file = config("{\"approveTools\": [\"send_*\", 3, \"!x\", \" y\"]}");
        assertThatThrownBy(() -> ToolsConfig.load(file, Map.of(), Map.of(), List.of()))
                .isInstanceOfSatisfying(
                        ToolsConfigException.class,
                        e -> assertThat(e.problems())
                                .extracting(Problem::pointer, Problem::message)
                                .containsExactly(
                                        org.assertj.core.groups.Tuple.tuple(
                                                "/approveTools/1", "must be a tool name glob, not a number"),
                                        org.assertj.core.groups.Tuple.tuple(
                                                "/approveTools/2",
                                                "approve-tools glob '!x' starts with '!': list the "
                                                        + "tools that need approval"),
                                        org.assertj.core.groups.Tuple.tuple(
                                                "/approveTools/3", "approve-tools glob ' y' has spaces around it")));
        Path notArray = config("{\"approveTools\": \"send_*\"}");
        assertThatThrownBy(() -> ToolsConfig.load(notArray, Map.of(), Map.of(), List.of()))
                .hasMessageContaining("/approveTools")
                .hasMessageContaining("must be an array of tool name globs");
        Path typo = config("{\"aproveTools\": []}");
        assertThatThrownBy(() -> ToolsConfig.load(typo, Map.of(), Map.of(), List.of()))
                .hasMessageContaining("unknown key 'aproveTools' (did you mean 'approveTools'?)");
    }
}
