package dev.planvm.json;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link JsonText} reads LLM answers and tool outputs, which are untrusted: for any text it must
 * answer without an exception, with a container JSON can hold — and the same answer as the obvious
 * quadratic search ({@link JsonTextOracleTest.Oracle}). Under plain {@code mvn test} this runs once per
 * file in {@code JsonTextFuzzTestInputs}; with {@code JAZZER_FUZZ=1} Jazzer mutates them (see
 * bench/README.md, "Fuzzing"), and an input that takes over 10 s (the fuzz profile's {@code -timeout}) is a
 * finding. Linear time is {@link JsonTextLinearTest}'s: no wall clock here.
 *
 * <p>Input: bytes as UTF-8 text, or — when the first byte is 1 — as raw UTF-16 code units (two
 * bytes each, big-endian), so lone surrogates can be made.
 */
class JsonTextFuzzTest {

    /** The oracle is quadratic: compare with it only on inputs short enough. */
    private static final int ORACLE_LIMIT = 1_000;

    @FuzzTest(maxDuration = "30s")
    void any_text_is_searched_in_linear_time_and_agrees_with_the_obvious_search(byte[] bytes) {
        String text = text(bytes);
        Optional<JsonNode> parsed = JsonText.parse(text);
        Optional<JsonNode> object = JsonText.findObject(text).map(JsonNode.class::cast);
        parsed.ifPresent(JsonTextFuzzTest::check);
        object.ifPresent(JsonTextFuzzTest::check);
        if (object.isPresent() && !object.get().isObject()) {
            throw new AssertionError("findObject found " + object.get().getNodeType());
        }
        if (text.length() <= ORACLE_LIMIT) {
            same("parse", parsed, JsonTextOracleTest.Oracle.parse(text));
            same("findObject", object, JsonTextOracleTest.Oracle.findObject(text));
        }
    }

    private static void check(JsonNode found) {
        if (!found.isContainerNode()) {
            throw new AssertionError("found a " + found.getNodeType() + ", not an object or array");
        }
        JsonValues.problem(found).ifPresent(problem -> {
            throw new AssertionError("found a value JSON cannot hold: " + problem);
        });
    }

    private static void same(String what, Optional<JsonNode> linear, Optional<JsonNode> oracle) {
        if (!Objects.equals(linear, oracle)) {
            throw new AssertionError(what + ": the linear scan found " + linear + ", the obvious search " + oracle);
        }
    }

    private static String text(byte[] bytes) {
        if (bytes.length == 0 || bytes[0] != 1) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        char[] chars = new char[(bytes.length - 1) / 2];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) (((bytes[1 + 2 * i] & 0xff) << 8) | (bytes[2 + 2 * i] & 0xff));
        }
        return new String(chars);
    }
}
