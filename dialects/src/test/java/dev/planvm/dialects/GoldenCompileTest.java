package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example of seeds 000 and 001 ({@code examples/}) and every behaviour case ({@code golden/})
 * compiles to exactly its golden output: diagnostics, line of each seq_no, and the StackVM JSON.
 * A compiled plan must also load with today's {@link PlanLoader} without errors, unless it uses
 * date/time helpers (phase 2: they are compiled as written, and a warning says so).
 */
class GoldenCompileTest {

    private static final PlanLoader LOADER = new PlanLoader();

    @TestFactory
    Stream<DynamicTest> every_seed_example_compiles_to_its_golden_output() {
        List<Path> sources = Golden.sources(Golden.EXAMPLES);
        assertThat(sources).hasSizeGreaterThanOrEqualTo(20);
        return sources.stream()
                .map(source -> DynamicTest.dynamicTest(
                        Golden.EXAMPLES.relativize(source).toString(), () -> check(source)));
    }

    @TestFactory
    Stream<DynamicTest> every_golden_case_compiles_to_its_golden_output() {
        return Golden.sources(Golden.GOLDEN).stream()
                .map(source ->
                        DynamicTest.dynamicTest(Golden.GOLDEN.relativize(source).toString(), () -> check(source)));
    }

    private static void check(Path source) {
        Compiled compiled = Golden.compile(source);
        String fileName = source.getFileName().toString();
        Golden.check(source, Golden.render(compiled, fileName));
        if (!compiled.valid()) {
            return;
        }
        LoadResult loaded = compiled.load(LOADER, fileName);
        boolean usesDates =
                compiled.warnings().stream().anyMatch(w -> w.message().contains("date/time helpers"));
        if (!usesDates) {
            assertThat(loaded.errors()).as("the compiled plan loads").isEmpty();
        }
    }
}
