package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API: choosing a dialect, reading files safely, and handing the result to the plan loader. */
class DialectCompilerTest {

    @TempDir
    Path dir;

    @Test
    void the_extension_chooses_the_dialect_and_json_is_the_default() {
        assertThat(Dialect.forFileName("a/plan.yaml")).contains(Dialect.YAML);
        assertThat(Dialect.forFileName("plan.YML")).contains(Dialect.YAML);
        assertThat(Dialect.forFileName("plan.js")).contains(Dialect.JS);
        assertThat(Dialect.forFileName("plan.json")).contains(Dialect.JSON);
        assertThat(Dialect.forFileName("plan.txt")).isEmpty();
        assertThat(Dialect.forFileName("plan")).isEmpty();
        assertThat(Dialect.ofFile("plan.txt")).isEqualTo(Dialect.JSON);
        assertThat(DialectCompiler.forFile("x.yml").dialect()).isEqualTo(Dialect.YAML);
    }

    @Test
    void a_dialect_can_be_named_as_on_the_command_line() {
        assertThat(Dialect.named("yaml")).contains(Dialect.YAML);
        assertThat(Dialect.named(" JS ")).contains(Dialect.JS);
        assertThat(Dialect.named("yml")).contains(Dialect.YAML);
        assertThat(Dialect.named("python")).isEmpty();
        assertThat(Dialect.YAML.cliName()).isEqualTo("yaml");
    }

    @Test
    void a_file_is_read_as_strict_utf8_within_the_size_limit() throws IOException {
        Path good = Files.writeString(dir.resolve("plan.js"), "return 'é';");
        assertThat(DialectCompiler.forFile("plan.js").compile(good).valid()).isTrue();

        Path latin1 = Files.write(
                dir.resolve("latin1.js"), new byte[] {'r', 'e', 't', 'u', 'r', 'n', ' ', '\'', (byte) 0xE9, '\''});
        assertThat(messages(DialectCompiler.forFile("x.js").compile(latin1)))
                .containsExactly("the file is not valid UTF-8 text");

        assertThat(messages(DialectCompiler.forFile("x.js").compile(dir.resolve("missing.js"))))
                .containsExactly("the file does not exist");

        DialectCompiler small = DialectCompiler.of(
                Dialect.JS, DialectOptions.DEFAULT.withLimits(DialectLimits.DEFAULT.withMaxBytes(8)));
        assertThat(messages(small.compile(good))).containsExactly("the plan is larger than the limit of 8 bytes");
        assertThat(messages(small.compile("return 'ééé';", "x.js")))
                .containsExactly("the plan is larger than the limit of 8 bytes");
    }

    @Test
    void json_passes_through_with_the_line_of_each_instruction() {
        Compiled compiled = DialectCompiler.of(Dialect.JSON).compile("""
                [
                  {"seq_no": 0, "type": "assign", "parameters": {"x": 1}},

                  {"seq_no": 5,
                   "type": "assign", "parameters": {"final_answer": "${x}"}}
                ]""", "plan.json");
        assertThat(compiled.lineOfSeqNo()).isEqualTo(Map.of(0, 2, 5, 4));
        assertThat(compiled.plan().size()).isEqualTo(2);
    }

    @Test
    void loading_keeps_the_compilers_warnings_in_front_of_the_loaders_diagnostics() {
        Compiled compiled = DialectCompiler.of(Dialect.YAML).compile("unused: x\nresult: 1\n", "plan.yaml");
        LoadResult loaded = compiled.load(new PlanLoader(), "plan.yaml");
        assertThat(loaded.valid()).isTrue();
        assertThat(loaded.diagnostics().get(0).message()).startsWith("line 1, column 1: alias 'unused' is never used");
    }

    @Test
    void loading_a_failed_compilation_gives_no_plan_and_its_errors() {
        Compiled compiled = DialectCompiler.of(Dialect.JS).compile("return ;", "plan.js");
        LoadResult loaded = compiled.load(new PlanLoader(), "plan.js");
        assertThat(loaded.valid()).isFalse();
        assertThat(loaded.errors())
                .extracting(Diagnostic::message)
                .containsExactly("line 1, column 1: 'return' needs a value: return <expression>;");
        assertThatThrownBy(loaded::planOrThrow).hasMessageContaining("'return' needs a value");
    }

    @Test
    void a_compiled_result_has_a_plan_exactly_when_it_has_no_error() {
        assertThatThrownBy(() -> new Compiled(null, Map.of(), java.util.List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(DialectCompiler.of(Dialect.JS).compile("return 1;", "x.js").planText())
                .contains("\"final_answer\" : 1");
    }

    private static java.util.List<String> messages(Compiled compiled) {
        return compiled.diagnostics().stream().map(Diagnostic::message).toList();
    }
}
