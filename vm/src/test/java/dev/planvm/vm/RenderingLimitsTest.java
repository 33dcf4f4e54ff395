package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.RunResult;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every builtin and every rendering counts what it would build against the build ceilings before
 * allocating: {@code str}, {@code contains}, {@code upper}/{@code lower}, {@code json}, the
 * params and condition a step hands out, and the previews in error messages. A value whose text
 * would be huge — an array holding one long text three times — fails the step with a sentence, or
 * is previewed without being rendered; allocation is measured to prove nothing was built.
 */
class RenderingLimitsTest {

    private static final String FOUR_MILLION = "x".repeat(4_000_000);
    /** A deadline that proves "not hung", no timing target (those are bench's). */
    private static final Duration NOT_HUNG = Duration.ofSeconds(60);

    private static PlanVm vm() {
        return PlanVm.builder()
                .sequential(true)
                .tools(java.util.List.of(
                        Tool.of("echo", "Returns its params.", (params, call) -> params),
                        Tool.of(
                                "big",
                                "Returns an array holding one long text three times.",
                                (params, call) -> thrice(FOUR_MILLION))))
                .build();
    }

    private static ArrayNode thrice(String s) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        TextNode text = TextNode.valueOf(s);
        return array.add(text).add(text).add(text);
    }

    private static RunResult run(String plan, Map<String, JsonNode> inputs) {
        PlanVm vm = vm();
        return vm.run(vm.loader().load(plan, "p").planOrThrow(), inputs, RunMode.dryRun(false));
    }

    private static RunResult live(String plan, Map<String, JsonNode> inputs) {
        PlanVm vm = vm();
        return vm.run(vm.loader().load(plan, "p").planOrThrow(), inputs);
    }

    private static String assign(String expression) {
        return "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"" + expression + "\"}}]";
    }

    /** Bytes this thread allocates while {@code work} runs (HotSpot's per-thread counter). */
    private static long allocatedBy(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        work.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void str_of_an_array_whose_text_would_pass_the_ceiling_is_refused_before_it_is_rendered() {
        RunResult result = run(assign("${len(str([s, s, s]))}"), Map.of("s", TextNode.valueOf(FOUR_MILLION)));

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().describe())
                .isEqualTo("seq_no 0 (assign): ${len(str([s, s, s]))}: str() would build text of more than 10,000,000"
                        + " characters; one expression cannot build more");
    }

    @Test
    void contains_never_renders_a_needle_longer_than_the_haystack() {
        Map<String, JsonNode> inputs = Map.of("s", TextNode.valueOf(FOUR_MILLION));
        String plan = assign("${contains('a', [s, s, s])}");
        run(plan, inputs); // warm up

        RunResult[] result = new RunResult[1];
        long allocated = allocatedBy(() -> result[0] = run(plan, inputs));

        assertThat(result[0].finalAnswer().booleanValue()).isFalse();
        assertThat(allocated).as("bytes allocated").isLessThan(4_000_000);
    }

    @Test
    void contains_on_an_object_never_renders_a_needle_longer_than_its_keys() {
        RunResult result = run(assign("${contains({k: 1}, [s, s, s])}"), Map.of("s", TextNode.valueOf(FOUR_MILLION)));
        assertThat(result.finalAnswer().booleanValue()).isFalse();
        assertThat(run(assign("${contains({'[1]': 1}, [1])}"), Map.of())
                        .finalAnswer()
                        .booleanValue())
                .isTrue();
    }

    @Test
    void upper_case_text_that_would_grow_past_the_ceiling_is_refused_before_it_is_built() {
        RunResult result = assertTimeoutPreemptively(
                NOT_HUNG,
                () -> run(assign("${len(upper(s))}"), Map.of("s", TextNode.valueOf("\ufb03".repeat(4_000_000)))));

        assertThat(result.error().message())
                .endsWith("upper() would build text of more than 10,000,000 characters;"
                        + " one expression cannot build more");
        assertThat(run(assign("${upper(s)}"), Map.of("s", TextNode.valueOf("stra\u00dfe")))
                        .finalAnswer()
                        .asText())
                .isEqualTo("STRASSE");
    }

    @Test
    void a_million_characters_that_grow_when_case_mapped_are_mapped_in_linear_time() {
        RunResult upper = assertTimeoutPreemptively(
                NOT_HUNG,
                () -> run(assign("${len(upper(s))}"), Map.of("s", TextNode.valueOf("\u00df".repeat(1_000_000)))));
        RunResult lower = assertTimeoutPreemptively(
                NOT_HUNG,
                () -> run(assign("${len(lower(s))}"), Map.of("s", TextNode.valueOf("\u0130".repeat(1_000_000)))));

        assertThat(upper.finalAnswer().intValue()).isEqualTo(2_000_000);
        assertThat(lower.finalAnswer().intValue()).isEqualTo(2_000_000);
    }

    @Test
    void case_mapping_in_pieces_gives_the_jdk_result_final_sigma_included() {
        String greek = "\u039f\u0394\u039f\u03a3 \u03a3\u039f\u03a6\u0399\u0391\u03a3, ".repeat(2_000)
                + "stra\u00dfe \ud83d\ude00";

        RunResult lower = run(assign("${lower(s)}"), Map.of("s", TextNode.valueOf(greek)));
        RunResult upper = run(assign("${upper(s)}"), Map.of("s", TextNode.valueOf(greek)));

        assertThat(lower.finalAnswer().asText()).isEqualTo(greek.toLowerCase(java.util.Locale.ROOT));
        assertThat(upper.finalAnswer().asText()).isEqualTo(greek.toUpperCase(java.util.Locale.ROOT));
    }

    @Test
    void json_of_text_with_millions_of_tokens_is_refused_before_the_tree_is_built() {
        String text = "[" + "[],".repeat(1_100_000) + "[]]";

        RunResult result = run(assign("${len(json(t))}"), Map.of("t", TextNode.valueOf(text)));

        assertThat(result.error().message())
                .endsWith("json() would build more than 2,000,000 JSON tokens or nest deeper"
                        + " than 1,000 levels; one expression cannot build more");
    }

    @Test
    void a_condition_prompt_that_renders_past_the_string_limit_is_refused_before_it_is_rendered() {
        RunResult result = run("""
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition_prompt": "${[s, s, s]}", "jump_if_true": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "done"}}]""", Map.of("s", TextNode.valueOf(FOUR_MILLION)));

        assertThat(result.error().describe())
                .isEqualTo("seq_no 0 (jmp): the condition_prompt would be text of more"
                        + " than 1,000,000 characters, the limit for one string");
    }

    @Test
    void params_larger_than_one_variable_may_be_are_refused_before_the_tool_gets_them() {
        RunResult result = run("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"q": "${[s, s, s]}"},
                  "output_vars": "final_answer"}}]""", Map.of("s", TextNode.valueOf(FOUR_MILLION)));

        assertThat(result.error().describe())
                .isEqualTo(
                        "seq_no 0 (calling): the tool_params value of tool 'echo' is larger"
                                + " than 5,242,880 (characters of text and keys, plus one per other value), the limit for one value");
    }

    @Test
    void a_huge_output_that_holds_no_object_is_previewed_without_being_rendered() {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "big", "tool_params": {},
                  "output_vars": ["a", "b"]}}]""";
        live(plan, Map.of()); // warm up

        RunResult[] result = new RunResult[1];
        long allocated = allocatedBy(() -> result[0] = live(plan, Map.of()));

        assertThat(result[0].error().describe())
                .startsWith("seq_no 0 (calling): tool 'big' returned array \"[\"xxxx")
                .endsWith("…\", with no JSON object holding a, b (output_vars)");
        assertThat(allocated).as("bytes allocated").isLessThan(4_000_000);
    }

    @Test
    void a_huge_non_boolean_condition_is_previewed_without_being_rendered() {
        String plan = """
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition": "${[s, s, s]}", "jump_if_true": 0}}]""";
        Map<String, JsonNode> inputs = Map.of("s", TextNode.valueOf(FOUR_MILLION));
        run(plan, inputs); // warm up

        RunResult[] result = new RunResult[1];
        long allocated = allocatedBy(() -> result[0] = run(plan, inputs));

        assertThat(result[0].error().describe())
                .startsWith("seq_no 0 (jmp): condition must evaluate to true or false," + " not array [\"xxx")
                .endsWith("…");
        assertThat(allocated).as("bytes allocated").isLessThan(4_000_000);
    }

    /** An array that counts the reads of its elements (Jackson's own deepCopy() override is unchecked). */
    @SuppressWarnings("unchecked")
    private static final class CountingArray extends ArrayNode {
        private static final long serialVersionUID = 1L;
        final java.util.concurrent.atomic.AtomicLong visited = new java.util.concurrent.atomic.AtomicLong();

        CountingArray() {
            super(JsonNodeFactory.instance);
        }

        @Override
        public JsonNode get(int index) {
            visited.incrementAndGet();
            return super.get(index);
        }
    }

    /** An array literal holding one large value a thousand times is a thousand references, compared in no time. */
    @Test
    void comparing_values_that_share_parts_takes_no_time_per_shared_part() {
        CountingArray million = new CountingArray();
        for (int i = 0; i < 1_000_000; i++) {
            million.add(i);
        }
        String refs = String.join(", ", java.util.Collections.nCopies(1_000, "x"));
        String plan = assign("${[" + refs + "] == [" + refs + "] && contains([" + refs + "], x)}");

        RunResult result = run(plan, Map.of("x", million));

        assertThat(result.finalAnswer().booleanValue()).isTrue();
        // one pass at most (the input is measured once), not one per shared part: that would be 2,000 passes
        assertThat(million.visited.get())
                .as("elements of the shared value read")
                .isLessThanOrEqualTo(1_000_000);
    }
}
