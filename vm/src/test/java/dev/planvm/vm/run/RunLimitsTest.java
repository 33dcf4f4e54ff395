package dev.planvm.vm.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

/** The memory limits of one run: where each limit lies exactly, and how sizes are said. */
class RunLimitsTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static JsonNode nested(int levels) {
        JsonNode value = NODES.numberNode(1);
        for (int i = 0; i < levels; i++) {
            ArrayNode array = NODES.arrayNode();
            array.add(value);
            value = array;
        }
        return value;
    }

    @Test
    void every_limit_must_be_at_least_one() {
        assertThat(new RunLimits(1, 1, 1, 1).maxRunSize()).isEqualTo(1);
        assertThatThrownBy(() -> new RunLimits(0, 1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunLimits(1, 0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunLimits(1, 1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RunLimits(1, 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run limits must be at least 1, not 1 characters, 1 per value, 1 levels, 0 per run");
    }

    @Test
    void the_defaults_and_the_withers_change_one_limit_each() {
        assertThat(RunLimits.DEFAULT)
                .isEqualTo(new RunLimits(1_000_000, 5L * 1024 * 1024, 500, RunLimits.DEFAULT_MAX_RUN_SIZE));
        assertThat(RunLimits.DEFAULT_MAX_RUN_SIZE).isEqualTo(64L * 1024 * 1024);
        RunLimits limits = new RunLimits(10, 20, 30, 40);
        assertThat(limits.withMaxStringLength(11)).isEqualTo(new RunLimits(11, 20, 30, 40));
        assertThat(limits.withMaxValueSize(21)).isEqualTo(new RunLimits(10, 21, 30, 40));
        assertThat(limits.withMaxValueDepth(31)).isEqualTo(new RunLimits(10, 20, 31, 40));
        assertThat(limits.withMaxRunSize(41)).isEqualTo(new RunLimits(10, 20, 30, 41));
    }

    @Test
    void text_as_long_as_the_limit_is_held_and_one_character_more_is_refused() {
        RunLimits limits = new RunLimits(100, 5, 10);
        assertThat(limits.checkVariable("v", TextNode.valueOf("abcde"))).isEqualTo(5);
        assertThatThrownBy(() -> limits.checkVariable("v", TextNode.valueOf("abcdef")))
                .isInstanceOf(LimitReached.class)
                .hasMessage("the value for 'v' is text of 6 characters; the limit for one variable is 5");
        assertThatThrownBy(() -> limits.checkValue("the params of tool 'x'", TextNode.valueOf("abcdef")))
                .isInstanceOf(LimitReached.class)
                .hasMessage("the params of tool 'x' is text of 6 characters; the limit for one value is 5");
    }

    @Test
    void a_value_a_step_hands_out_is_sized_like_a_variable() {
        RunLimits limits = new RunLimits(100, 5, 10);
        ObjectNode params = NODES.objectNode();
        params.put("q", "abc");
        assertThat(limits.checkValue("the params of tool 'x'", TextNode.valueOf("abcde")))
                .isEqualTo(5);
        assertThat(limits.checkValue("the params of tool 'x'", NODES.numberNode(7)))
                .isEqualTo(1);
        long size = new RunLimits(100, 1_000_000, 10).checkVariable("p", params);
        assertThat(new RunLimits(100, 1_000_000, 10).checkValue("the params of tool 'x'", params))
                .isEqualTo(size);
    }

    @Test
    void a_scalar_counts_one() {
        RunLimits limits = new RunLimits(100, 1, 1);
        assertThat(limits.checkVariable("n", NODES.numberNode(123456789))).isEqualTo(1);
        assertThat(limits.checkVariable("b", NODES.booleanNode(true))).isEqualTo(1);
        assertThat(limits.checkVariable("z", NODES.nullNode())).isEqualTo(1);
    }

    @Test
    void a_container_as_large_as_the_limit_is_held_and_one_more_is_refused() {
        ObjectNode value = NODES.objectNode();
        value.put("key", "value");
        value.putArray("list").add(1).add(2);
        long size = new RunLimits(100, 1_000_000, 10).checkVariable("v", value);
        assertThat(size).isGreaterThan(1);
        assertThat(new RunLimits(100, size, 10).checkVariable("v", value)).isEqualTo(size);
        assertThatThrownBy(() -> new RunLimits(100, size - 1, 10).checkVariable("v", value))
                .isInstanceOf(LimitReached.class)
                .hasMessage("the value for 'v' is larger than " + (size - 1)
                        + " (characters of text and keys, plus one per other value), the limit for one variable");
    }

    @Test
    void a_container_as_deep_as_the_limit_is_held_and_one_level_more_is_refused() {
        assertThat(new RunLimits(100, 1_000, 3).checkVariable("v", nested(3))).isPositive();
        assertThatThrownBy(() -> new RunLimits(100, 1_000, 3).checkVariable("v", nested(4)))
                .isInstanceOf(LimitReached.class)
                .hasMessage("the value for 'v' is nested deeper than 3 levels, the limit for one variable");
    }

    @Test
    void sizes_are_said_in_mib_kib_or_a_count() {
        assertThat(RunLimits.describeSize(1023)).isEqualTo("1,023");
        assertThat(RunLimits.describeSize(1024)).isEqualTo("1 KiB");
        assertThat(RunLimits.describeSize(1536)).isEqualTo("1.5 KiB");
        assertThat(RunLimits.describeSize(1024L * 1024 - 1)).isEqualTo("1024.0 KiB");
        assertThat(RunLimits.describeSize(1024L * 1024)).isEqualTo("1 MiB");
        assertThat(RunLimits.describeSize(64L * 1024 * 1024)).isEqualTo("64 MiB");
        assertThat(RunLimits.describeSize(1024L * 1024 * 3 / 2)).isEqualTo("1.5 MiB");
    }
}
