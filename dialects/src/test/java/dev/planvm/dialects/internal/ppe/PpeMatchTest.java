package dev.planvm.dialects.internal.ppe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.dialects.DialectOptions;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Seed 004's {@code $match} patterns — regular expressions, comparisons, exact values, alternatives, ranges, array
 * and object destructuring — and its {@code $match(condition[, allMatches=...])} notation, run on conditions of every
 * JSON type: a pattern for another type is false, never an error, so the seed's own example ends in {@code _}.
 */
class PpeMatchTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String PATTERNS = """
            ---
            input: [c]
            ---
            $match(c):
              :/^RegEx|ends with re$/i:
                - $echo: regex
              :> 12:
                - $echo: more than 12
              :"string":
                - $echo: exact
              :1 || 2:
                - $echo: one or two
              :1..5:
                - $echo: one to five
              ":['a,b', _, _, last]":
                - $echo: "?='array ending ' + last"
              ":{x='a', y=':1||2' }":
                - $echo: complete object
              ":{x='a', ..}":
                - $echo: partial object
              _ :
                - $echo: else matched
            """;

    @Test
    void each_pattern_matches_its_values_and_no_other_type_fails_it() throws Exception {
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put("\"regex first\"", "regex");
        expected.put("\"it ends with RE\"", "regex");
        expected.put("\"a regex in the middle\"", "else matched");
        expected.put("13", "more than 12");
        expected.put("\"13\"", "else matched");
        expected.put("\"string\"", "exact");
        expected.put("2", "one or two");
        expected.put("4.5", "one to five");
        expected.put("[\"a,b\", 1, 2, \"z\"]", "array ending z");
        expected.put("[\"a,b\", 1, \"z\"]", "else matched");
        expected.put("{\"x\": \"a\", \"y\": 2}", "complete object");
        expected.put("{\"x\": \"a\", \"y\": 3}", "partial object");
        expected.put("{\"x\": \"a\", \"z\": 0}", "partial object");
        expected.put("{\"x\": \"b\"}", "else matched");
        expected.put("null", "else matched");
        expected.put("true", "else matched");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(run(PATTERNS, JSON.readTree(e.getKey()), "patterns").asText())
                    .as("$match(" + e.getKey() + ")")
                    .isEqualTo(e.getValue());
        }
    }

    @Test
    void all_matches_runs_every_matching_case_and_otherwise_only_when_none_did() throws Exception {
        String script = """
                ---
                input: [c]
                ---
                $set:
                  seen: ""
                $match(c[, allMatches=true]):
                  :> 1:
                    - $set:
                        seen: "?=seen + 'big '"
                  :< 10:
                    - $set:
                        seen: "?=seen + 'small '"
                  _:
                    - $set:
                        seen: none
                $echo: "?=seen"
                """;
        assertThat(run(script, JSON.readTree("5"), "all").asText()).isEqualTo("big small ");
        assertThat(run(script, JSON.readTree("50"), "all").asText()).isEqualTo("big ");
        assertThat(run(script, JSON.readTree("\"x\""), "all").asText()).isEqualTo("none");
    }

    @Test
    void a_regular_expression_beyond_literal_text_is_refused_with_its_line() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE)
                .compile("$match(LatestResult):\n  :/\\d+/:\n    - $echo: digits\n", "r.ai.yaml");
        assertThat(compiled.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("r.ai.yaml"))
                        .contains("line 2")
                        .contains("the regular-expression escape '\\d' is not supported"));
    }

    private static JsonNode run(String script, JsonNode c, String name) {
        Compiled compiled = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(Set.of("c")))
                .compile(script, name + ".ai.yaml");
        assertThat(compiled.errors()).isEmpty();
        PlanVm vm = PlanVm.builder().build();
        RunResult result = vm.run(compiled.load(vm.loader(), name).planOrThrow(), Map.of("c", c));
        assertThat(result.error()).as("error of $match(" + c + ")").isNull();
        return result.finalAnswer();
    }
}
