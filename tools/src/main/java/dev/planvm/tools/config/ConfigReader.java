package dev.planvm.tools.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads the configuration file as strict JSON, bounded: at most {@link #MAX_BYTES} bytes and
 * {@link #MAX_DEPTH} levels of nesting; duplicate keys and anything after the document are refused
 * with the line and column. One entry method: {@link #read}.
 */
final class ConfigReader {

    /** The largest configuration file read (1 MiB). */
    static final int MAX_BYTES = JsonLimits.CONFIG.maxStringLength();

    static final int MAX_DEPTH = JsonLimits.CONFIG.maxDepth();

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.CONFIG);

    /** Why a file could not be read as JSON: one located sentence. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    private ConfigReader() {}

    /** The file's JSON document. */
    static JsonNode read(Path file) throws Unreadable {
        byte[] bytes = bytes(file);
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || node.isMissingNode()) {
                throw new Unreadable("the file is empty; it should hold a JSON object");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new Unreadable(located(e));
        } catch (IOException e) {
            throw new Unreadable("cannot read the file: " + e.getMessage());
        }
    }

    private static byte[] bytes(Path file) throws Unreadable {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                throw new Unreadable(
                        "the file is larger than " + (MAX_BYTES >> 10) + " KiB, too large for a tools configuration");
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new Unreadable("the file does not exist");
        } catch (IOException e) {
            throw new Unreadable("cannot read the file: " + e.getMessage());
        }
    }

    /** {@code line L, column C: what}, from Jackson's message without its source excerpt. */
    private static String located(JsonProcessingException e) {
        String what = JsonErrors.message(e);
        if (what.startsWith("Duplicate field")) {
            what = "duplicate key " + what.substring("Duplicate field".length()).strip();
        } else if (what.startsWith("Trailing token")) {
            what = "there is more after the JSON document (" + what + ")";
        }
        return "invalid JSON" + JsonErrors.where(e.getLocation()) + ": " + what;
    }
}
