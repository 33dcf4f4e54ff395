package dev.planvm.tools.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PLANVM_TOOLS_PATH: the directories of tool jars, relative ones against the working directory. */
class ToolsPathTest {

    @Test
    void the_paths_it_lists_blank_parts_skipped_and_relative_ones_resolved() {
        Path here = Path.of("/work/project");
        String value = "jars" + File.pathSeparator + " " + File.pathSeparator + " /opt/tools " + File.pathSeparator;
        assertThat(ToolsConfig.toolsPathFromEnvironment(here, Map.of(ToolsConfig.TOOLS_PATH_VARIABLE, value)))
                .containsExactly(Path.of("/work/project/jars"), Path.of("/opt/tools"));
        assertThat(ToolsConfig.toolsPathFromEnvironment(here, Map.of())).isEmpty();
    }
}
