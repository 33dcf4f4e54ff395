package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one loading path: files, standard input and text, in every dialect, to one kind of LoadResult. */
class PlanSourcesTest {

    private static final String JSON = "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]";
    private static final String YAML = "# a comment\nresult: ${len('abc')}\n";
    private static final String JS = "// a comment\n\nreturn len('abc');\n";

    @TempDir
    Path dir;

    private final PlanSources sources = PlanSources.of(new PlanLoader());

    @Test
    void the_extension_chooses_the_front_end_and_dialect_plans_know_their_lines() throws IOException {
        LoadResult json = sources.load(Files.writeString(dir.resolve("p.json"), JSON));
        LoadResult yaml = sources.load(Files.writeString(dir.resolve("p.yaml"), YAML));
        LoadResult yml = sources.load(Files.writeString(dir.resolve("p.yml"), YAML));
        LoadResult js = sources.load(Files.writeString(dir.resolve("p.js"), JS));
        assertThat(json.valid() && yaml.valid() && yml.valid() && js.valid()).isTrue();
        assertThat(json.plan().sourceLines()).isEmpty();
        assertThat(yaml.plan().sourceLine(0)).hasValue(2);
        assertThat(js.plan().sourceLine(0)).hasValue(3);
        assertThat(yaml.source()).endsWith("p.yaml");
    }

    @Test
    void a_named_dialect_wins_over_the_extension() throws IOException {
        Path text = Files.writeString(dir.resolve("plan.txt"), YAML);
        assertThat(sources.load(text).valid())
                .as("a .txt file is JSON by default")
                .isFalse();
        assertThat(sources.load(text, Dialect.YAML).plan().sourceLine(0)).hasValue(2);
    }

    @Test
    void standard_input_and_text_load_in_the_dialect_given() {
        LoadResult stdin =
                sources.load(new ByteArrayInputStream(JS.getBytes(StandardCharsets.UTF_8)), "<stdin>", Dialect.JS);
        assertThat(stdin.valid()).isTrue();
        assertThat(stdin.plan().sourceLine(0)).hasValue(3);
        assertThat(sources.load(new ByteArrayInputStream(JSON.getBytes(StandardCharsets.UTF_8)), "<stdin>", null)
                        .valid())
                .isTrue();
        assertThat(sources.load(YAML, "request.yaml", null).valid()).isTrue();
        assertThat(sources.load(YAML, "plan.json", Dialect.YAML).valid()).isTrue();
    }

    @Test
    void standard_input_is_read_within_the_size_limit() {
        PlanSources small =
                sources.withOptions(DialectOptions.DEFAULT.withLimits(DialectLimits.DEFAULT.withMaxBytes(10)));
        LoadResult loaded =
                small.load(new ByteArrayInputStream(YAML.getBytes(StandardCharsets.UTF_8)), "<stdin>", Dialect.YAML);
        assertThat(loaded.errors())
                .extracting(Diagnostic::message)
                .containsExactly("the plan is larger than the limit of 10 bytes");
    }

    @Test
    void inputs_a_run_is_given_may_be_read_once_declared() {
        String plan = "result: Hello ${user}\n";
        assertThat(sources.load(plan, "p.yaml", null).errors())
                .extracting(d -> d.format("p.yaml"))
                .containsExactly("p.yaml: line 1, column 17: unknown name 'user' (aliases: result)");
        assertThat(sources.withInputs(Set.of("user")).load(plan, "p.yaml", null).valid())
                .isTrue();
    }

    @Test
    void dialect_files_are_told_apart_from_json_ones() {
        assertThat(PlanSources.isDialectFile("a/x.yaml")).isTrue();
        assertThat(PlanSources.isDialectFile("x.YML")).isTrue();
        assertThat(PlanSources.isDialectFile("x.js")).isTrue();
        assertThat(PlanSources.isDialectFile("x.json")).isFalse();
        assertThat(PlanSources.isDialectFile("x.expected.json")).isFalse();
        assertThat(PlanSources.dialectOf("x.js", null)).isEqualTo(Dialect.JS);
        assertThat(PlanSources.dialectOf("x.js", Dialect.YAML)).isEqualTo(Dialect.YAML);
        assertThat(PlanSources.dialectOf("<stdin>", null)).isEqualTo(Dialect.JSON);
    }
}
