package dev.planvm.knowledge;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * What a knowledge base holds, for {@code planvm kb list} and {@code planvm kb stats}. A knowledge base
 * that cannot be read has only its name, directory and {@link #problem()}.
 *
 * @param name          its name
 * @param directory     its directory
 * @param model         the embedding model that built it
 * @param dimension     its vectors' dimension
 * @param files         source files indexed
 * @param chunks        chunks
 * @param entities      knowledge-graph entities (0 without a graph)
 * @param relationships knowledge-graph relationships
 * @param bytes         size on disk
 * @param created       when it was created
 * @param updated       when it was last indexed
 * @param problem       why it cannot be read, if so
 */
public record KbStats(
        String name,
        Path directory,
        String model,
        int dimension,
        int files,
        int chunks,
        int entities,
        int relationships,
        long bytes,
        Instant created,
        Instant updated,
        Optional<String> problem) {

    /** Stats of a knowledge base that cannot be read. */
    static KbStats broken(String name, Path directory, String problem) {
        return new KbStats(name, directory, "", 0, 0, 0, 0, 0, 0, null, null, Optional.of(problem));
    }

    public boolean hasGraph() {
        return entities > 0;
    }

    /** The stats as JSON ({@code planvm kb stats --format json}). */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("name", name);
        json.put("directory", directory.toString());
        problem.ifPresentOrElse(p -> json.put("problem", p), () -> {
            json.put("model", model);
            json.put("dimension", dimension);
            json.put("files", files);
            json.put("chunks", chunks);
            json.put("entities", entities);
            json.put("relationships", relationships);
            json.put("bytes", bytes);
            json.put("created", created == null ? null : created.toString());
            json.put("updated", updated == null ? null : updated.toString());
        });
        return json;
    }

    /** One line: {@code docs  12 files  57 chunks  0 entities  all-MiniLM-L6-v2-q  1.2 MB  updated ...}. */
    public String line() {
        if (problem.isPresent()) {
            return name + "  (" + problem.get() + ")";
        }
        return String.format(
                "%s  %d files  %d chunks  %d entities  %d relationships  %s  %.1f MB  updated %s",
                name,
                files,
                chunks,
                entities,
                relationships,
                model,
                bytes / 1_048_576.0,
                updated == null ? "never" : updated.toString());
    }
}
