package dev.planvm.dialects.internal.ppe;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectLimits;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.dialects.FuzzChecks;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * PPE scripts are untrusted: any bytes compile to a result with located diagnostics, never an
 * exception, a stack overflow or a hang, and a plan that compiles also loads. Under plain
 * {@code mvn test} this runs once per file in {@code PpeCompilerFuzzTestInputs} (the seed examples
 * and the error cases); with {@code JAZZER_FUZZ=1} Jazzer mutates them.
 */
class PpeCompilerFuzzTest {

    private static final DialectCompiler PPE = DialectCompiler.of(Dialect.PPE);
    private static final DialectCompiler SMALL = DialectCompiler.of(
            Dialect.PPE,
            DialectOptions.DEFAULT
                    .withInputs(Set.of("content", "condition"))
                    .withLimits(DialectLimits.DEFAULT
                            .withMaxBytes(4096)
                            .withMaxNesting(6)
                            .withMaxAliases(8)
                            .withMaxInstructions(16)));

    @FuzzTest(maxDuration = "30s")
    void any_bytes_compile_to_a_result_with_located_diagnostics_never_an_exception(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        FuzzChecks.check(PPE.compile(text, "fuzz.ai.yaml"), "fuzz.ai.yaml");
        FuzzChecks.check(SMALL.compile(text, "fuzz.ai.yaml"), "fuzz.ai.yaml");
    }
}
