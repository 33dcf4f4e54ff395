package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

/** Token counts: arithmetic, JSON both ways (tolerant of older traces) and how they read. */
class TokenCountTest {

    @Test
    void counts_are_never_negative() {
        assertThatThrownBy(() -> new TokenCount(-1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("token counts must not be negative, not -1 and 0");
        assertThatThrownBy(() -> new TokenCount(0, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new TokenCount(0, 0)).isEqualTo(TokenCount.ZERO);
    }

    @Test
    void total_plus_minus_and_zero() {
        TokenCount a = new TokenCount(100, 20);
        assertThat(a.total()).isEqualTo(120);
        assertThat(a.plus(new TokenCount(1, 2))).isEqualTo(new TokenCount(101, 22));
        assertThat(a.minus(new TokenCount(30, 5))).isEqualTo(new TokenCount(70, 15));
        assertThat(a.minus(new TokenCount(300, 50))).as("never below zero").isEqualTo(TokenCount.ZERO);
        assertThat(TokenCount.ZERO.isZero()).isTrue();
        assertThat(new TokenCount(1, 0).isZero()).isFalse();
        assertThat(new TokenCount(0, 1).isZero()).isFalse();
    }

    @Test
    void json_both_ways_and_missing_or_malformed_fields_count_as_zero() {
        TokenCount a = new TokenCount(1_000, 234);
        assertThat(a.toJson()).hasToString("{\"prompt\":1000,\"completion\":234}");
        assertThat(TokenCount.fromJson(a.toJson())).isEqualTo(a);
        assertThat(TokenCount.fromJson(null)).isEqualTo(TokenCount.ZERO);
        assertThat(TokenCount.fromJson(TextNode.valueOf("12"))).isEqualTo(TokenCount.ZERO);
        var partial = JsonNodeFactory.instance.objectNode().put("prompt", 7).put("completion", -3);
        assertThat(TokenCount.fromJson(partial)).isEqualTo(new TokenCount(7, 0));
        var negativePrompt =
                JsonNodeFactory.instance.objectNode().put("prompt", -7).put("completion", 3);
        assertThat(TokenCount.fromJson(negativePrompt)).isEqualTo(new TokenCount(0, 3));
    }

    @Test
    void it_reads_with_thousands_separators() {
        assertThat(new TokenCount(1_000, 234).describe()).isEqualTo("1,234 tokens (prompt 1,000, completion 234)");
        assertThat(TokenCount.count(1_234_567)).isEqualTo("1,234,567");
    }
}
