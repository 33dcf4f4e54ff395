package dev.planvm.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a JSON document to a file the way {@link AtomicFiles} writes text — readers see the old
 * file or the whole new one — but streamed: the document is never one string in memory, so a
 * trace or cassette of tens of megabytes costs no more than its tree.
 */
public final class JsonFiles {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonFiles() {
    }

    /** Writes {@code document} pretty-printed (as {@link JsonNode#toPrettyString()} does), then a newline. */
    public static void writePretty(Path target, JsonNode document) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Path temp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(temp);
                 JsonGenerator generator = MAPPER.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
                MAPPER.writeTree(generator, document);
                generator.flush();
                out.write('\n');
            }
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
