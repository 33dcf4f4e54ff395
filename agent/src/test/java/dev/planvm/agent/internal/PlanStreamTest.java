package dev.planvm.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanStreamTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final List<String> seen = new ArrayList<>();
    private final List<JsonNode> nodes = new ArrayList<>();
    private final PlanStream stream = new PlanStream(
            (node, index, pointer) -> {
                seen.add(index + " " + pointer);
                nodes.add(node);
            },
            1_000_000,
            64);

    private static final String PLAN = """
            {"reasoning": {"plan": [1, 2]}, "plan": [
              {"seq_no": 0, "type": "assign", "parameters": {"n": 42, "big": 12345678901, "x": 1.5, "t": true, "z": null, "s": "a\\"b ☃ 😀"}},
              {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "s", "tool_params": {"q": ["a", {"b": []}]}, "output_vars": ["r"]}}
            ], "after": [{"seq_no": 9}]}""";

    @Test
    void each_instruction_is_handed_over_when_its_closing_brace_arrives_even_fed_one_character_at_a_time()
            throws Exception {
        JsonNode expected = MAPPER.readTree(PLAN).get("plan");
        int closing = PLAN.indexOf("}},\n") + 2;
        for (int i = 0; i < PLAN.length(); i++) {
            stream.feed(PLAN.substring(i, i + 1));
            if (i == closing - 2) {
                assertThat(seen)
                        .as("nothing before the first instruction closes")
                        .isEmpty();
            }
            if (i == closing - 1) {
                assertThat(seen).containsExactly("0 /plan/0");
            }
        }
        stream.end();

        assertThat(seen).containsExactly("0 /plan/0", "1 /plan/1");
        assertThat(nodes.get(0)).isEqualTo(expected.get(0));
        assertThat(nodes.get(1)).isEqualTo(expected.get(1));
        assertThat(nodes.get(0).at("/parameters/s").asText()).isEqualTo("a\"b ☃ 😀");
    }

    @Test
    void a_bare_array_after_a_code_fence_is_read_and_text_after_it_ignored() {
        stream.feed("```json\n[{\"seq_no\": 0, \"type\": \"reasoning\"},");
        stream.feed(" {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {}}]\n```\nDone [{\"seq_no\": 5}]");
        stream.end();

        assertThat(seen).containsExactly("0 /0", "1 /1");
    }

    @Test
    void malformed_json_stops_the_stream_quietly_keeping_what_arrived_before() {
        stream.feed("[{\"seq_no\": 0, \"type\": \"reasoning\"}, {\"seq_no\": 1,, ");
        stream.feed("{\"seq_no\": 2}]");
        stream.end();

        assertThat(seen).containsExactly("0 /0");
    }

    @Test
    void a_stream_longer_than_its_limit_is_not_read_further() {
        PlanStream small = new PlanStream((node, index, pointer) -> seen.add(pointer), 40, 64);
        small.feed("[{\"seq_no\": 0, \"type\": \"reasoning\"},");
        small.feed("{\"seq_no\": 1, \"type\": \"reasoning\"}]");
        small.end();

        assertThat(seen).containsExactly("/0");
    }

    @Test
    void nesting_deeper_than_the_limit_stops_the_stream() {
        PlanStream shallow = new PlanStream((node, index, pointer) -> seen.add(pointer), 1_000_000, 5);
        shallow.feed("[{\"a\": 1}, {\"a\": [[[[[[1]]]]]]}, {\"b\": 2}]");
        shallow.end();

        assertThat(seen).containsExactly("/0");
    }
}
