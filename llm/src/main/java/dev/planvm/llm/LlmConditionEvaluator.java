package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decides LLM conditions (DESIGN P8) by asking a chat model for
 * {@code {"result": boolean, "explanation": string}} in JSON mode. The object may come bare, inside
 * prose or inside a <code>```json</code> fence. An unusable answer is re-asked in the same
 * conversation, naming the problem, up to {@value #TRIES} tries in all; then the call fails with a
 * non-retriable {@link ToolException}. Transport failures fail like {@code llm_generate}'s.
 * Thread-safe: nothing is shared between calls.
 */
public final class LlmConditionEvaluator implements ConditionEvaluator {

    /** How many answers are asked for before giving up. */
    static final int TRIES = 3;

    private static final String FORMAT = "{\"result\": true or false, \"explanation\": \"...\"}";

    static final String INSTRUCTIONS = "You decide whether a condition holds. Respond with only one JSON "
            + "object of the form {\"result\": true or false, \"explanation\": \"one or two sentences\"}: "
            + "'result' is a JSON boolean and 'explanation' a string. Write nothing outside the object.";

    private final LlmClient client;

    /** An evaluator over any chat model; failure messages cannot name the server or the timeout. */
    public LlmConditionEvaluator(ChatModel model) {
        this(new LlmClient(model, LlmFailures.unknownServer()));
    }

    /** An evaluator over the model {@code config} describes; failure messages name its URL and timeout. */
    public LlmConditionEvaluator(LlmConfig config) {
        this(new LlmClient(config.chatModel(), LlmFailures.of(config), config.provider()));
    }

    private LlmConditionEvaluator(LlmClient client) {
        this.client = client;
    }

    @Override
    public ConditionResult evaluate(String prompt, JsonNode context, CallContext call) {
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(SystemMessage.from(INSTRUCTIONS));
        messages.add(UserMessage.from(LlmText.withContext(Objects.requireNonNullElse(prompt, ""), context)));
        for (int tried = 1; ; tried++) {
            String answer = client.ask(messages, AnswerShape.JSON, call.events());
            ConditionAnswer read = ConditionAnswer.read(answer);
            if (read.result() != null) {
                return read.result();
            }
            if (tried == TRIES) {
                throw ToolException.permanent("the LLM gave no usable {\"result\", \"explanation\"} answer in " + TRIES
                        + " tries; last answer: \"" + LlmText.shorten(answer, 200) + "\"");
            }
            messages.add(AiMessage.from(answer));
            messages.add(UserMessage.from(read.problem() + " Reply with only " + FORMAT + "."));
        }
    }

    @Override
    public String toString() {
        return "LlmConditionEvaluator";
    }
}
