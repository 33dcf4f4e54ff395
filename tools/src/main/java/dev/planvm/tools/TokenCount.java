package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * Tokens an LLM request spent, as the server counted them: the prompt's and the completion's.
 *
 * @param prompt     tokens of the request (the prompt, the context, the conversation so far)
 * @param completion tokens of the answer
 */
public record TokenCount(long prompt, long completion) {

    /** No tokens. */
    public static final TokenCount ZERO = new TokenCount(0, 0);

    public TokenCount {
        if (prompt < 0 || completion < 0) {
            throw new IllegalArgumentException(
                    "token counts must not be negative, not " + prompt + " and " + completion);
        }
    }

    public long total() {
        return prompt + completion;
    }

    public boolean isZero() {
        return prompt == 0 && completion == 0;
    }

    public TokenCount plus(TokenCount other) {
        return new TokenCount(prompt + other.prompt, completion + other.completion);
    }

    /** This count less {@code earlier} (what was spent since). */
    public TokenCount minus(TokenCount earlier) {
        return new TokenCount(Math.max(0, prompt - earlier.prompt), Math.max(0, completion - earlier.completion));
    }

    /** {@code {"prompt": P, "completion": C}}. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("prompt", prompt);
        json.put("completion", completion);
        return json;
    }

    /**
     * A count from its JSON form; missing or malformed fields count as 0 (a trace written by an older
     * version has none).
     */
    public static TokenCount fromJson(JsonNode json) {
        if (json == null || !json.isObject()) {
            return ZERO;
        }
        return new TokenCount(
                Math.max(0, json.path("prompt").asLong(0)),
                Math.max(0, json.path("completion").asLong(0)));
    }

    /** {@code 1,234 tokens (prompt 1,000, completion 234)}. */
    public String describe() {
        return count(total()) + " tokens (prompt " + count(prompt) + ", completion " + count(completion) + ")";
    }

    /** {@code 1,234}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
