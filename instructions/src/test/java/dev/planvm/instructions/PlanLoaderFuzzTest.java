package dev.planvm.instructions;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/**
 * Plans are untrusted, so the loader must turn any bytes into a {@link LoadResult}: no exception,
 * no stack overflow, no hang. Under plain {@code mvn test} this runs once per file in
 * {@code PlanLoaderFuzzTestInputs} (real plans, broken ones, deep nesting); with
 * {@code JAZZER_FUZZ=1} Jazzer mutates them (see bench/README.md, "Fuzzing").
 */
class PlanLoaderFuzzTest {

    private static final PlanLoader LOADER = new PlanLoader();
    private static final PlanLoader SMALL =
            new PlanLoader(PlanLimits.DEFAULT.withMaxBytes(4096).withMaxDepth(8).withMaxInstructions(16));
    /** Reads what the loader refuses (duplicate keys, deep nesting), to feed the already-parsed path. */
    private static final ObjectMapper LENIENT = new ObjectMapper();

    @FuzzTest(maxDuration = "30s")
    void any_bytes_load_to_a_result_with_diagnostics_never_an_exception(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        check(LOADER.load(text, "fuzz"));
        check(LOADER.load(new ByteArrayInputStream(bytes), "fuzz"));
        check(SMALL.load(new ByteArrayInputStream(bytes), "fuzz"));
        JsonNode tree = lenientTree(text);
        if (tree != null) {
            check(LOADER.load(tree, "fuzz"));
            check(SMALL.load(tree, "fuzz"));
        }
    }

    /** A result is a plan exactly when it has no error, and every diagnostic prints as one line. */
    private static void check(LoadResult result) {
        if (result.valid() != result.errors().isEmpty()) {
            throw new AssertionError("valid() is " + result.valid() + " with errors " + result.errors());
        }
        if (result.valid() && result.plan().instructions().isEmpty()) {
            throw new AssertionError("a valid plan with no instructions");
        }
        for (Diagnostic diagnostic : result.diagnostics()) {
            if (diagnostic.message().isBlank() || diagnostic.format("fuzz.json").isBlank()) {
                throw new AssertionError("a diagnostic without a message: " + diagnostic);
            }
        }
    }

    private static JsonNode lenientTree(String text) {
        try {
            return LENIENT.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
