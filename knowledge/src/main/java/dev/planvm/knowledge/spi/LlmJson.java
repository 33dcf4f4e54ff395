package dev.planvm.knowledge.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * An LLM asked for JSON, used to extract the knowledge graph. planvm implements it with its call chain
 * (the {@code llm_generate} tool with the expected keys), so extraction calls are recorded and replayed
 * by cassettes, retried and budgeted like any call. The prompt is the same for every chunk; the context
 * is the chunk (its title, heading path and text).
 *
 * <p>Implementations may be called from one thread at a time; they throw any runtime exception on
 * failure (the indexer reports the chunk and goes on).
 */
@FunctionalInterface
public interface LlmJson {

    /**
     * @param prompt  the instruction
     * @param context the text the instruction is about
     * @param keys    the keys the answer's JSON object must hold
     * @return the answer: a JSON object (text holding one is accepted too)
     */
    JsonNode generate(String prompt, String context, List<String> keys);
}
