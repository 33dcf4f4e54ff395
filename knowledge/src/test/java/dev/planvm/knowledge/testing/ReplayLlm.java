package dev.planvm.knowledge.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.knowledge.spi.LlmJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Replays recorded LLM answers: each recorded answer serves the calls whose context contains its
 * {@code context_contains} text; a call no recording answers fails, as a replayed cassette does.
 */
public final class ReplayLlm implements LlmJson {

    private final List<JsonNode> recorded = new ArrayList<>();
    public final List<String> contexts = Collections.synchronizedList(new ArrayList<>());
    public final List<String> prompts = Collections.synchronizedList(new ArrayList<>());
    public final List<List<String>> keys = Collections.synchronizedList(new ArrayList<>());

    public ReplayLlm(String resource) {
        try (InputStream in = ReplayLlm.class.getResourceAsStream(resource)) {
            new ObjectMapper().readTree(in).forEach(recorded::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public JsonNode generate(String prompt, String context, List<String> expectedKeys) {
        prompts.add(prompt);
        contexts.add(context);
        keys.add(expectedKeys);
        for (JsonNode interaction : recorded) {
            if (context.contains(interaction.get("context_contains").asText())) {
                return interaction.get("answer");
            }
        }
        throw new IllegalStateException("no recorded answer for this context");
    }
}
