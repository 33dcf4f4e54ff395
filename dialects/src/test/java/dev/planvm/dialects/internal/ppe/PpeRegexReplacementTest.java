package dev.planvm.dialects.internal.ppe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
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
 * Seed 004's {@code [[/RegExp/opts:VAR[:group]]]} in a message shows what JavaScript's {@code String.match} gives:
 * each expected text below is what node printed for the same expression and text ({@code s.match(re)}, group 1
 * when there is one, VAR itself when nothing matches).
 */
class PpeRegexReplacementTest {

    @Test
    void the_seeds_example_shows_the_wrapped_result_or_the_whole_answer() {
        String message = "Based on the following content: [[/<RESULT>(.+)</RESULT>/:A]]";
        assertThat(show(message, "Sure: <RESULT>42</RESULT> done")).isEqualTo("Based on the following content: 42");
        assertThat(show(message, "no tags")).isEqualTo("Based on the following content: no tags");
    }

    @Test
    void the_matches_are_javascripts() {
        Map<String, String[]> cases = new java.util.LinkedHashMap<>();
        cases.put(
                "dot does not cross a line",
                new String[] {"[[/<RESULT>(.+)<\\/RESULT>/:A]]", "<RESULT>4\n2</RESULT>", "<RESULT>4\n2</RESULT>"});
        cases.put("flag s", new String[] {"[[/<RESULT>(.+)<\\/RESULT>/s:A]]", "<RESULT>4\n2</RESULT>", "4\n2"});
        cases.put("greedy", new String[] {"[[/<R>(.+)<\\/R>/:A]]", "<R>a</R><R>b</R>", "a</R><R>b"});
        cases.put("lazy", new String[] {"[[/<R>(.+?)<\\/R>/:A]]", "<R>a</R><R>b</R>", "a"});
        cases.put("lazy needs a character", new String[] {"[[/<R>(.+?)<\\/R>/:A]]", "<R></R>x</R>", "</R>x"});
        cases.put("the first line that matches", new String[] {"[[/<R>(.+)<\\/R>/:A]]", "x <R>\n<R>b</R>", "b"});
        cases.put("named group", new String[] {"[[/<R>(?<v>.*)<\\/R>/:A:v]]", "<R>b</R>!", "b"});
        cases.put("the whole match", new String[] {"[[/<R>(?<v>.*)<\\/R>/:A:0]]", "<R>b</R>!", "<R>b</R>"});
        cases.put("literal text", new String[] {"[[/done/:A]]", "all done now", "done"});
        cases.put("anchors across lines", new String[] {"[[/^<R>(.*)$/:A]]", "<R>tail\nnext", "<R>tail\nnext"});
        cases.put("end anchor", new String[] {"[[/(.+)$/:A]]", "a\nb", "b"});
        cases.forEach((name, c) -> assertThat(show(c[0], c[1])).as(name).isEqualTo(c[2]));
    }

    @Test
    void a_regular_expression_planvm_does_not_read_is_refused_with_its_line() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(Set.of("A")))
                .compile("---\ninput: [A]\n---\nuser: \"n = [[/(\\\\d+)/:A]]\"\n", "r.ai.yaml");
        assertThat(compiled.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("r.ai.yaml"))
                        .contains("line 4")
                        .contains("planvm reads one group of any characters"));
    }

    /** The text a user turn shows for {@code A = answer} (the AI does not answer: no LLM). */
    private static String show(String message, String answer) {
        String script = "---\ninput: [A]\nautoRunLLMIfPromptAvailable: false\n---\nuser: |-\n  "
                + message.replace("\n", "\n  ") + "\n";
        Compiled compiled = DialectCompiler.of(Dialect.PPE, DialectOptions.DEFAULT.withInputs(Set.of("A")))
                .compile(script, "r.ai.yaml");
        assertThat(compiled.errors()).isEmpty();
        PlanVm vm = PlanVm.builder().build();
        RunResult result =
                vm.run(compiled.load(vm.loader(), "r.ai.yaml").planOrThrow(), Map.of("A", TextNode.valueOf(answer)));
        assertThat(result.error()).isNull();
        return result.finalAnswer().asText();
    }
}
