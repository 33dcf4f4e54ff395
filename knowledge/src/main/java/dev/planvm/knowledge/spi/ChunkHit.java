package dev.planvm.knowledge.spi;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One chunk found by a search.
 *
 * @param chunkId   stable id: the source path, {@code #}, the chunk's ordinal in it ({@code docs/run.md#3})
 * @param content   the chunk's text
 * @param sourceUri the source file's path as indexed (relative to the directory indexing ran from)
 * @param score     cosine similarity to the query, -1 to 1, higher is closer
 * @param title     the document's title
 * @param heading   the heading path of the chunk's section ({@code Run > Options}), empty before the first heading
 * @param start     the chunk's first character in the document's text
 * @param end       the offset after its last character
 * @param tokens    its length in tokens (the embedding model's tokenizer)
 */
public record ChunkHit(
        String chunkId,
        String content,
        String sourceUri,
        double score,
        String title,
        String heading,
        int start,
        int end,
        int tokens) {

    public ChunkHit {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(sourceUri, "sourceUri");
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(heading, "heading");
    }

    /** StackVM's shape: {@code {"content", "source_uri", "score", "chunk_id", "meta": {...}}}. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("content", content);
        json.put("source_uri", sourceUri);
        json.put("score", score);
        json.put("chunk_id", chunkId);
        ObjectNode meta = json.putObject("meta");
        meta.put("title", title);
        meta.put("heading", heading);
        meta.put("start", start);
        meta.put("end", end);
        meta.put("tokens", tokens);
        return json;
    }
}
