package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.tools.TokenCount;
import java.util.ArrayList;
import java.util.List;

/** The optional {@code chunks} and {@code tokens} of a cassette interaction: read (checked) and written. */
final class StreamRecord {

    /** The most pieces one interaction may hold (a streamed plan of 5 MiB in pieces of 4 characters is far fewer). */
    static final int MAX_CHUNKS = 2_000_000;

    private StreamRecord() {}

    /** The {@code chunks} of an interaction: text pieces at non-decreasing times within its {@code duration_ms}. */
    static List<Interaction.Chunk> chunks(JsonNode item, long durationMs, String where) {
        JsonNode list = item.get("chunks");
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new CassetteException(where + "/chunks: must be an array of {\"text\", \"at_ms\"}");
        }
        if (list.size() > MAX_CHUNKS) {
            throw new CassetteException(where + "/chunks: more than " + TokenCount.count(MAX_CHUNKS) + " chunks");
        }
        List<Interaction.Chunk> chunks = new ArrayList<>(list.size());
        long previous = 0;
        for (int i = 0; i < list.size(); i++) {
            JsonNode chunk = list.get(i);
            String at = where + "/chunks/" + i;
            if (!chunk.path("text").isTextual()
                    || !chunk.path("at_ms").canConvertToExactIntegral()
                    || !chunk.path("at_ms").canConvertToLong()) {
                throw new CassetteException(at + ": a chunk needs \"text\" (text) and \"at_ms\" (whole milliseconds)");
            }
            long atMs = chunk.get("at_ms").asLong();
            if (atMs < previous) {
                throw new CassetteException(at + ": at_ms " + atMs + " is before the previous chunk's " + previous);
            }
            if (atMs > durationMs) {
                throw new CassetteException(
                        at + ": at_ms " + atMs + " is after the interaction's duration_ms " + durationMs);
            }
            previous = atMs;
            chunks.add(new Interaction.Chunk(chunk.get("text").asText(), atMs));
        }
        return chunks;
    }

    /** The {@code tokens} of an interaction: {@code {"prompt", "completion"}}, whole numbers from 0. */
    static TokenCount tokens(JsonNode item, String where) {
        JsonNode tokens = item.get("tokens");
        if (tokens == null || tokens.isNull()) {
            return TokenCount.ZERO;
        }
        if (!tokens.isObject() || !count(tokens.get("prompt")) || !count(tokens.get("completion"))) {
            throw new CassetteException(
                    where + "/tokens: must be {\"prompt\": N, \"completion\": N} with whole numbers from 0");
        }
        return new TokenCount(
                tokens.get("prompt").asLong(), tokens.get("completion").asLong());
    }

    private static boolean count(JsonNode value) {
        return value != null && value.canConvertToExactIntegral() && value.canConvertToLong() && value.asLong() >= 0;
    }

    static ArrayNode toJson(List<Interaction.Chunk> chunks) {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (Interaction.Chunk chunk : chunks) {
            list.addObject().put("text", chunk.text()).put("at_ms", chunk.atMs());
        }
        return list;
    }
}
