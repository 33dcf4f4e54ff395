package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every {@link PlanLimits} refuses a plan over it with one error that names the limit, never an exception. */
class LimitsLoadTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"x": [[1]]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${x}"}}]""";

    @TempDir
    Path dir;

    @Test
    void a_plan_file_over_the_default_size_is_refused_with_its_size_and_the_limit() throws IOException {
        Path file = dir.resolve("big.json");
        Files.write(file, bigPlan(5 * 1024 * 1024 + 1));

        LoadResult result = new PlanLoader().load(file);

        assertThat(messages(result)).containsExactly("the plan is 5,242,881 bytes; the limit is 5 MiB");
    }

    @Test
    void a_plan_file_at_the_size_limit_is_read() throws IOException {
        Path file = dir.resolve("plan.json");
        Files.writeString(file, PLAN);
        PlanLoader loader = new PlanLoader(PlanLimits.DEFAULT.withMaxBytes(PLAN.length()));

        assertThat(loader.load(file).errors()).isEmpty();
        assertThat(loader.withLimits(PlanLimits.DEFAULT.withMaxBytes(PLAN.length() - 1))
                        .load(file)
                        .errors())
                .extracting(Diagnostic::message)
                .containsExactly(
                        "the plan is " + PLAN.length() + " bytes; the limit is " + (PLAN.length() - 1) + " bytes");
    }

    @Test
    void an_endless_stream_is_refused_after_one_byte_more_than_the_limit() {
        CountingEndlessStream endless = new CountingEndlessStream();

        LoadResult result = new PlanLoader(PlanLimits.DEFAULT.withMaxBytes(64 * 1024)).load(endless, "<stdin>");

        assertThat(messages(result)).containsExactly("the plan is more than 65,536 bytes; the limit is 64 KiB");
        assertThat(endless.read).isEqualTo(64 * 1024 + 1);
    }

    @Test
    void a_string_over_the_size_limit_is_measured_in_utf8_bytes() {
        String plan = "[\"" + "é".repeat(60) + "\"]";

        LoadResult result = new PlanLoader(PlanLimits.DEFAULT.withMaxBytes(100)).load(plan, "p");

        assertThat(messages(result)).containsExactly("the plan is 124 bytes; the limit is 100 bytes");
    }

    @Test
    void nesting_100000_levels_deep_is_one_clean_diagnostic() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);

        LoadResult fromText = new PlanLoader().load(deep, "deep.json");
        LoadResult fromStream =
                new PlanLoader().load(new ByteArrayInputStream(deep.getBytes(StandardCharsets.UTF_8)), "-");

        assertThat(messages(fromText)).containsExactly("JSON nested deeper than 64 levels at line 1, column 65");
        assertThat(messages(fromStream)).isEqualTo(messages(fromText));
        assertThat(fromText.errors().get(0).pointer()).isEmpty();
    }

    @Test
    void nesting_inside_an_instruction_is_located_by_line_and_column() {
        PlanLoader loader = new PlanLoader(PlanLimits.DEFAULT.withMaxDepth(4));

        assertThat(new PlanLoader(PlanLimits.DEFAULT.withMaxDepth(5))
                        .load(PLAN, "p")
                        .errors())
                .isEmpty();
        assertThat(messages(loader.load(PLAN, "p")))
                .containsExactly("JSON nested deeper than 4 levels at line 1, column 55");
    }

    @Test
    void an_already_parsed_tree_100000_levels_deep_is_refused_at_the_pointer_where_it_gets_too_deep() {
        ArrayNode root = JsonNodeFactory.instance.arrayNode();
        ArrayNode inner = root;
        for (int i = 0; i < 100_000; i++) {
            inner = inner.addArray();
        }

        LoadResult result = new PlanLoader().load(root, "tree");

        assertThat(messages(result)).containsExactly("JSON nested deeper than 64 levels");
        assertThat(result.errors().get(0).pointer()).isEqualTo("/0".repeat(64));
    }

    @Test
    void an_already_parsed_tree_names_object_keys_in_its_pointer() {
        JsonNode plan = PlanReader.MAPPER.valueToTree(
                List.of(Map.of("seq_no", 0, "type", "assign", "parameters", Map.of("a/b", List.of(List.of(1))))));

        LoadResult result = new PlanLoader(PlanLimits.DEFAULT.withMaxDepth(4)).load(plan, "tree");

        assertThat(result.errors()).singleElement().satisfies(error -> {
            assertThat(error.pointer()).isEqualTo("/0/parameters/a~1b/0");
            assertThat(error.message()).isEqualTo("JSON nested deeper than 4 levels");
        });
    }

    @Test
    void more_instructions_than_the_limit_refuse_the_plan_before_they_are_checked() {
        PlanLoader loader = new PlanLoader(PlanLimits.DEFAULT.withMaxInstructions(1));

        assertThat(loader.load(PLAN, "p").errors()).singleElement().satisfies(error -> {
            assertThat(error.message()).isEqualTo("the plan has 2 instructions; the limit is 1");
            assertThat(error.pointer()).isEmpty();
        });
        assertThat(loader.load("{\"plan\": " + PLAN + "}", "p").errors())
                .extracting(Diagnostic::pointer)
                .containsExactly("/plan");
    }

    @Test
    void the_default_instruction_limit_is_ten_thousand() {
        ObjectNode reasoning = JsonNodeFactory.instance.objectNode().put("type", "reasoning");
        reasoning.putObject("parameters").put("chain_of_thoughts", "think");
        ArrayNode plan = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i <= 10_000; i++) {
            plan.add(reasoning.deepCopy().put("seq_no", i));
        }

        assertThat(messages(new PlanLoader().load(plan, "p")))
                .containsExactly("the plan has 10,001 instructions; the limit is 10,000");
        plan.remove(10_000);
        assertThat(new PlanLoader().load(plan, "p").errors()).isEmpty();
    }

    @Test
    void a_number_longer_than_json_allows_is_a_located_error() {
        LoadResult result = new PlanLoader().load("[" + "1".repeat(1001) + "]", "p");

        assertThat(messages(result))
                .singleElement()
                .asString()
                .startsWith("JSON value too large at line 1, column ")
                .contains("Number value length (1001) exceeds the maximum allowed (1000)")
                .doesNotContain("StreamReadConstraints");
    }

    @Test
    void limits_are_checked_when_made_and_kept_by_with_limits() {
        assertThatThrownBy(() -> PlanLimits.DEFAULT.withMaxDepth(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PlanLimits.DEFAULT.withMaxDepth(PlanLimits.MAX_DEPTH + 1))
                .hasMessageContaining("cannot be written back");
        PlanLoader loader = new PlanLoader(Set.of("search"), Set.of("custom"), PlanLimits.DEFAULT);
        PlanLoader limited = loader.withLimits(PlanLimits.DEFAULT.withMaxInstructions(5));

        assertThat(limited.limits().maxInstructions()).isEqualTo(5);
        assertThat(limited.load("[{\"seq_no\": 0, \"type\": \"custom\", \"parameters\": {}}]", "p")
                        .errors())
                .isEmpty();
        assertThat(new PlanLoader().limits()).isEqualTo(PlanLimits.DEFAULT);
    }

    private static byte[] bigPlan(int size) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) ' ');
        bytes[0] = '[';
        bytes[size - 1] = ']';
        return bytes;
    }

    private static List<String> messages(LoadResult result) {
        assertThat(result.valid()).isFalse();
        return result.errors().stream().map(Diagnostic::message).toList();
    }

    /** An input stream that never ends, counting the bytes taken from it. */
    private static final class CountingEndlessStream extends InputStream {
        long read;

        @Override
        public int read() {
            read++;
            return ' ';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            Arrays.fill(b, off, off + len, (byte) ' ');
            read += len;
            return len;
        }
    }
}
