package dev.planvm.agent.format;

/**
 * How the planner asks the LLM to answer.
 */
public enum AnswerFormat {
    /** OpenAI structured outputs: {@code response_format: json_schema} with {@link StrictPlanSchema}, {@code strict: true}. */
    STRICT,
    /** JSON mode: {@code response_format: json_object}; the plan's shape is asked for in the prompt. */
    JSON,
    /** No response format: the prompt asks for the plan as JSON (a code fence around it is accepted). */
    TEXT;

    /** {@code strict}, {@code json}, {@code text}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
