package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The linear scan finds exactly what the obvious search finds — try every bracket in order, take
 * its balanced span, parse it — on 30,000 random texts made of JSON's own characters, prose and
 * surrogates. The obvious search (quadratic, kept here as the oracle) is what {@link JsonText}
 * did before; the two must agree on every text.
 */
class JsonTextOracleTest {

    private static final String[] PIECES = {
        "{",
        "}",
        "[",
        "]",
        "\"",
        ":",
        ",",
        "\\",
        " ",
        "\n",
        "1",
        "0",
        "-",
        ".",
        "e",
        "a",
        "true",
        "null",
        "fals",
        "\"k\"",
        "\"v\":",
        "{\"a\":1}",
        "[1,2]",
        "\\u0041",
        "\\ud800",
        "\\udc00",
        "\ud83d\ude00",
        "\ud800",
        "\udc00",
        "1e400",
        "x",
        "```json\n",
        "```\n",
        "\\\""
    };

    /** Long pieces that nest past Jackson's 1,000 levels when a few meet; in one text of 150. */
    private static final String[] DEEP = {"[".repeat(300), "]".repeat(300), "{\"d\":[".repeat(200), "]}".repeat(200)};

    @Test
    void the_linear_scan_agrees_with_the_quadratic_search_on_random_texts() {
        Random random = new Random(Long.getLong("oracle.seed", 20240917));
        // 3,000 random texts by default, 30,000 with mvn -Pslow (oracle.cases)
        for (int i = 0; i < Integer.getInteger("oracle.cases", 3_000); i++) {
            StringBuilder text = new StringBuilder();
            int pieces = random.nextInt(Integer.getInteger("oracle.pieces", 24));
            boolean deep = i % 150 == 0;
            for (int p = 0; p < pieces; p++) {
                text.append(
                        deep && random.nextInt(3) == 0
                                ? DEEP[random.nextInt(DEEP.length)]
                                : PIECES[random.nextInt(PIECES.length)]);
            }
            String s = text.toString();
            assertThat(JsonText.parse(s)).as("parse(%s)", show(s)).isEqualTo(Oracle.parse(s));
            assertThat(JsonText.findObject(s).map(JsonNode.class::cast))
                    .as("findObject(%s)", show(s))
                    .isEqualTo(Oracle.findObject(s));
        }
    }

    @Test
    void containers_nested_deeper_than_jackson_reads_are_passed_over_as_the_quadratic_search_does() {
        String[] texts = {
            "{\"x\": " + "[".repeat(1500) + "]".repeat(1500) + "} then {\"a\": 1}",
            "[".repeat(1200) + "{\"a\": 1}" + "]".repeat(1200),
            "[".repeat(999) + "{\"a\": [2]}" + "]".repeat(999),
            "[".repeat(1000) + "{\"a\": [2]}" + "]".repeat(1000),
            "{\"d\": [".repeat(600) + "3" + "]}".repeat(600),
            "[".repeat(2500) + "]".repeat(1200) + ", [1]" + "]".repeat(1300),
        };
        for (String text : texts) {
            assertThat(JsonText.parse(text))
                    .as("parse of %d characters", text.length())
                    .isEqualTo(Oracle.parse(text));
            assertThat(JsonText.findObject(text).map(JsonNode.class::cast)).isEqualTo(Oracle.findObject(text));
        }
    }

    /** The text with everything but printable ASCII escaped, so a failure shows it exactly. */
    private static String show(String s) {
        StringBuilder shown = new StringBuilder();
        for (char c : s.toCharArray()) {
            shown.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return shown.toString();
    }

    /** The search JsonText made before it became linear: each bracket in turn, its balanced span, Jackson. */
    static final class Oracle {

        static Optional<JsonNode> parse(String text) {
            JsonNode whole = container(text.strip());
            if (whole != null) {
                return Optional.of(whole);
            }
            JsonNode fenced = fenced(text, false);
            if (fenced != null) {
                return Optional.of(fenced);
            }
            return Optional.ofNullable(scan(text));
        }

        static Optional<JsonNode> findObject(String text) {
            JsonNode whole = container(text.strip());
            if (whole != null && whole.isObject()) {
                return Optional.of(whole);
            }
            JsonNode fenced = fenced(text, true);
            if (fenced != null) {
                return Optional.of(fenced);
            }
            int[] object = firstBalanced(text, '{', '}', 0);
            return Optional.ofNullable(object == null ? null : container(text.substring(object[0], object[1])));
        }

        private static JsonNode container(String s) {
            if (s.isEmpty()) {
                return null;
            }
            boolean object = s.charAt(0) == '{' && s.charAt(s.length() - 1) == '}';
            boolean array = s.charAt(0) == '[' && s.charAt(s.length() - 1) == ']';
            if (!object && !array) {
                return null;
            }
            try {
                JsonNode node = JsonValues.READER.readTree(s);
                return node != null && node.isContainerNode() && JsonValues.holdable(node) ? node : null;
            } catch (JsonProcessingException | RuntimeException e) {
                return null;
            }
        }

        private static JsonNode fenced(String text, boolean objectOnly) {
            int open = text.indexOf("```");
            while (open >= 0) {
                int lineEnd = text.indexOf('\n', open + 3);
                if (lineEnd < 0) {
                    return null;
                }
                int close = text.indexOf("```", lineEnd + 1);
                if (close < 0) {
                    return null;
                }
                String language = text.substring(open + 3, lineEnd).strip();
                if (language.isEmpty() || language.equalsIgnoreCase("json")) {
                    JsonNode node = container(text.substring(lineEnd + 1, close).strip());
                    if (node != null && (!objectOnly || node.isObject())) {
                        return node;
                    }
                }
                open = text.indexOf("```", close + 3);
            }
            return null;
        }

        private static JsonNode scan(String text) {
            int[] object = firstBalanced(text, '{', '}', 0);
            if (object == null) {
                int[] array = firstBalanced(text, '[', ']', 0);
                return array == null ? null : container(text.substring(array[0], array[1]));
            }
            int from = 0;
            while (true) {
                int[] array = firstBalanced(text, '[', ']', from);
                if (array == null || array[0] > object[0]) {
                    return container(text.substring(object[0], object[1]));
                }
                if (array[1] > object[0]) {
                    return container(text.substring(array[0], array[1]));
                }
                from = array[0] + 1;
            }
        }

        private static int[] firstBalanced(String text, char open, char close, int from) {
            int start = text.indexOf(open, from);
            while (start >= 0) {
                int end = matchingClose(text, start, open, close);
                if (end > 0 && container(text.substring(start, end)) != null) {
                    return new int[] {start, end};
                }
                start = text.indexOf(open, start + 1);
            }
            return null;
        }

        private static int matchingClose(String text, int start, char open, char close) {
            int depth = 0;
            boolean inString = false;
            for (int i = start; i < text.length(); i++) {
                char c = text.charAt(i);
                if (inString) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        inString = false;
                    }
                } else if (c == '"') {
                    inString = true;
                } else if (c == open) {
                    depth++;
                } else if (c == close) {
                    depth--;
                    if (depth == 0) {
                        return i + 1;
                    }
                }
            }
            return -1;
        }
    }
}
