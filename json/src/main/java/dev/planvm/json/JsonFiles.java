package dev.planvm.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a JSON document to a file by {@link AtomicFiles}' rules (readers see the old file or the
 * whole new one; what is not a regular file is never replaced), streamed: the document is never one
 * string in memory, so a trace or cassette of tens of megabytes costs no more than its tree.
 */
public final class JsonFiles {

    private JsonFiles() {}

    /** Writes {@code document} pretty-printed (as {@link JsonNode#toPrettyString()} does), then a newline. */
    public static void writePretty(Path target, JsonNode document) throws IOException {
        AtomicFiles.write(target, out -> {
            try (JsonGenerator generator = JsonMappers.factory(JsonLimits.STORE)
                    .createGenerator(out)
                    .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
                JsonMappers.pretty().writeValue(generator, document);
            }
            out.write('\n');
        });
    }
}
