package dev.planvm.knowledge.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/** JSON helpers: a bounded mapper, the JSON object in an LLM's text answer, atomic file writes. */
public final class Json {

    /** Jackson with nesting and sizes bounded for untrusted input. */
    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(64)
                            .maxStringLength(1 << 20)
                            .build())
                    .build())
            .build();

    private Json() {}

    /**
     * The JSON object {@code text} holds: the whole text, else a {@code ```json} fence's content, else the
     * span from the first {@code {} to the last {@code }}; empty when none parses as an object.
     */
    public static Optional<JsonNode> objectIn(String text) {
        String trimmed = text.strip();
        Optional<JsonNode> whole = parseObject(trimmed);
        if (whole.isPresent()) {
            return whole;
        }
        int fence = trimmed.indexOf("```");
        if (fence >= 0) {
            int bodyStart = trimmed.indexOf('\n', fence);
            int close = bodyStart < 0 ? -1 : trimmed.indexOf("```", bodyStart);
            if (close > bodyStart) {
                Optional<JsonNode> fenced = parseObject(trimmed.substring(bodyStart + 1, close));
                if (fenced.isPresent()) {
                    return fenced;
                }
            }
        }
        int open = trimmed.indexOf('{');
        int last = trimmed.lastIndexOf('}');
        return open >= 0 && last > open ? parseObject(trimmed.substring(open, last + 1)) : Optional.empty();
    }

    private static Optional<JsonNode> parseObject(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Writes {@code content} to {@code target} so that readers see the old file or the whole new one. */
    public static void writeAtomically(Path target, String content) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
        try {
            Files.writeString(temp, content, StandardCharsets.UTF_8);
            try {
                Files.move(temp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }
}
