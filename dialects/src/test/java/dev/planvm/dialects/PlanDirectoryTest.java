package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one rule for which files of a directory are plans. */
class PlanDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void a_directory_s_plans_are_its_plan_files_of_every_dialect_sorted_without_companions_and_recordings()
            throws IOException {
        for (String name : new String[] {"b.json", "a.yaml", "c.js", "d.yml"}) {
            Files.writeString(dir.resolve(name), "[]");
        }
        Files.writeString(dir.resolve("b.cassette.json"), "{}");
        Files.writeString(dir.resolve("b.expected.json"), "{}");
        Files.writeString(dir.resolve("run.json"), "{\"format\": \"planvm-trace/1\"}");
        Files.writeString(dir.resolve("notes.txt"), "not a plan");
        Files.createDirectory(dir.resolve("sub.json"));

        assertThat(PlanDirectory.plans(dir, false))
                .containsExactly(
                        dir.resolve("a.yaml"), dir.resolve("b.json"), dir.resolve("c.js"), dir.resolve("d.yml"));
    }

    @Test
    void agent_tests_count_only_when_asked_for() throws IOException {
        Path ask = Files.writeString(dir.resolve("ask.json"), "{\"format\": \"planvm-ask/1\", \"goal\": \"g\"}");

        assertThat(PlanDirectory.plans(dir, false)).isEmpty();
        assertThat(PlanDirectory.plans(dir, true)).containsExactly(ask);
        assertThat(PlanDirectory.isAsk(ask)).isTrue();
    }
}
