package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Pattern;

/** Small text helpers for LLM messages: the user message, durations, shortened quotes, hidden keys. */
final class LlmText {

    /** OpenAI-style secret keys ({@code sk-...}, {@code sk-proj-...}) that a server might echo. */
    private static final Pattern SECRET_KEY = Pattern.compile("sk-[A-Za-z0-9_\\-]{8,}");

    private LlmText() {}

    /**
     * The user message: the prompt, then {@code "\n\nContext:\n"} and the context when there is one
     * (text as it is, other JSON compact).
     */
    static String withContext(String prompt, JsonNode context) {
        if (context == null || context.isNull() || context.isMissingNode()) {
            return prompt;
        }
        return prompt + "\n\nContext:\n" + (context.isTextual() ? context.asText() : context.toString());
    }

    /** {@code 60 s}, {@code 1.5 s}. */
    static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis())
                        .movePointLeft(3)
                        .stripTrailingZeros()
                        .toPlainString() + " s";
    }

    /** A number as JSON writes it: {@code 1.5}, {@code 3}. */
    static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** The text on one line, cut to {@code max} characters (with an ellipsis when cut). */
    static String shorten(String text, int max) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max) + "…";
    }

    /** The text with {@code apiKey} (when given) and anything that looks like a secret key masked. */
    static String redact(String text, String apiKey) {
        String masked = text;
        if (apiKey != null && !apiKey.isBlank()) {
            masked = masked.replace(apiKey, "****");
        }
        return SECRET_KEY.matcher(masked).replaceAll("sk-****");
    }
}
