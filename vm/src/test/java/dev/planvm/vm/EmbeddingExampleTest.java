package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java examples of the README and of docs/guides/java.md: their code is the body of
 * {@link #example(Path, PrintStream)} (between the markers: the README shows its first part, the page all of it),
 * compiled and run here, and the README and the page must show exactly that code; the page's example is also
 * compiled as shown, imports and all, by the CLI's DocsExamplesTest.
 */
class EmbeddingExampleTest {

    @TempDir
    Path dir;

    static void example(Path storeFile, PrintStream out) {
        // docs/guides/java.md example: start
        // README example: start
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of(
                        "upper",
                        "Upper-cases params.text",
                        (params, call) ->
                                TextNode.valueOf(params.path("text").asText().toUpperCase())))
                .build();
        Plan plan = vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper",
                  "tool_params": {"text": "Hello, ${name}"}, "output_vars": "final_answer"}}]""", "hello.json").planOrThrow();
        RunResult result = vm.run(plan, Map.of("name", TextNode.valueOf("Ann")));
        out.println(result.finalAnswer().asText()); // HELLO, ANN
        // README example: end
        try (RunStore store = RunStore.open(storeFile, vm.redactor())) { // durable: resumable after a crash
            DurableRun run =
                    new DurableRuns(vm, store).start(plan, Map.of("name", TextNode.valueOf("Bo")), RunMode.live());
            out.println(run.id() + ": " + run.result().finalAnswer().asText()); // 4f2a9c1e07b3: HELLO, BO
        }
        // docs/guides/java.md example: end
    }

    @Test
    void the_example_runs_a_tool_and_a_durable_run() {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        example(dir.resolve("runs.db"), new PrintStream(printed, true, StandardCharsets.UTF_8));
        String[] lines = printed.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(lines[0]).isEqualTo("HELLO, ANN");
        assertThat(lines[1]).matches("[0-9a-f]{12}: HELLO, BO");
        try (RunStore store = RunStore.open(dir.resolve("runs.db"))) {
            assertThat(store.find(lines[1].substring(0, 12))).isPresent();
        }
    }

    @Test
    void the_readme_shows_exactly_this_code() throws IOException {
        String code = between(source(), "// README example: start\n", "        // README example: end");
        String readme = Files.readString(Path.of("../README.md"));
        assertThat(normalize(readme)).contains(normalize(code));
    }

    @Test
    void the_java_page_shows_exactly_this_code() throws IOException {
        String code = between(
                        source(),
                        "// docs/guides/java.md example: start\n",
                        "        // docs/guides/java.md example: end")
                .lines()
                .filter(line -> !line.strip().startsWith("// README example:"))
                .reduce("", (a, b) -> a + b + "\n");
        String page = Files.readString(Path.of("../docs/guides/java.md"));
        assertThat(normalize(page)).contains(normalize(code));
    }

    @Test
    void the_readme_shows_imports_the_compiled_page_example_has() throws IOException {
        List<String> readme = imports(Files.readString(Path.of("../README.md")));
        String page = Files.readString(Path.of("../docs/guides/java.md"));
        List<String> compiled = imports(page.substring(page.indexOf("## A tool, a run and a durable run")));
        assertThat(readme).isNotEmpty().isSubsetOf(compiled);
    }

    /** The import lines of the first {@code java} block of {@code text}. */
    private static List<String> imports(String text) {
        return text.substring(text.indexOf("```java\n") + 8)
                .lines()
                .takeWhile(line -> !line.startsWith("```"))
                .filter(line -> line.startsWith("import "))
                .toList();
    }

    private static String source() throws IOException {
        return Files.readString(Path.of("src/test/java/dev/planvm/vm/EmbeddingExampleTest.java"));
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start) + start.length();
        return text.substring(from, text.indexOf(end, from));
    }

    /** Lines without their common indentation or trailing blanks. */
    private static String normalize(String code) {
        return code.lines().map(String::strip).filter(line -> !line.isEmpty()).reduce("", (a, b) -> a + b + "\n");
    }
}
