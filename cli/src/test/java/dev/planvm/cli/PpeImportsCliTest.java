package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A PPE script's imports are plan tools of the run, with no --plan-tools flag (issue 27). */
class PpeImportsCliTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    @Test
    void run_offers_the_imported_scripts_as_plan_tools_and_the_chain_runs_them_as_child_runs() throws Exception {
        write("lib/shout.ai.yaml", "---\ninput: [content]\n---\n- $ret: \"?=upper(content) + '!'\"\n");
        write(
                "lib/exclaim.ai.yaml",
                "---\ninput: [content]\nimport: [shout.ai.yaml]\n---\n"
                        + "- $echo: \"?=content + ' there'\"\n- -> shout\n");
        Path parent = write(
                "parent.ai.yaml",
                "---\nimport:\n  - lib/exclaim.ai.yaml: greet\n---\n- $echo: hi\n- -> greet -> $print\n");
        CliRun run = CliRun.of("run", parent.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("HI THERE!\n");

        CliRun batch = CliRun.of("batch", parent.toString());
        assertThat(batch.exitCode()).as(batch.err()).isZero();
        assertThat(batch.out()).contains("HI THERE!");
    }

    @Test
    void a_missing_import_is_a_located_error_with_exit_2_and_no_stack_trace() throws Exception {
        Path parent = write("parent.ai.yaml", "---\nimport: [lib/none.ai.yaml]\n---\n- $echo: hi\n- -> none\n");
        CliRun run = CliRun.of("run", parent.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .contains(parent + ": line 2, column 10: the imported script 'lib/none.ai.yaml' is not found beside"
                        + " this script")
                .doesNotContain("Exception");
    }
}
