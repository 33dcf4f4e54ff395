package dev.planvm.vm.durable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * Large values stored once per content: in what a step writes and in its trace inputs, every value
 * of {@value #MIN_CHARS} characters or more (as compact JSON) is stored in the {@code blobs} table
 * under the SHA-256 of its JSON and replaced by {@code {"$planvm-blob": HASH}}. A loop that
 * re-assigns the same large value, or a tool output that is also a variable, costs its size once.
 * A value that happens to look like a reference is kept as {@code {"$planvm-literal": value}}.
 */
final class Blobs {

    static final int MIN_CHARS = 512;
    private static final String REF = "$planvm-blob";
    private static final String LITERAL = "$planvm-literal";
    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private final StoreDatabase db;

    Blobs(StoreDatabase db) {
        this.db = db;
    }

    /**
     * {@code object} with each large field value replaced by a reference, writing the blobs this
     * run did not have yet; returns the copy and adds to {@code bytes} what was newly written.
     */
    ObjectNode externalize(ObjectNode object, String runId, long[] bytes) {
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            copy.set(field.getKey(), externalize(field.getValue(), runId, bytes));
        }
        return copy;
    }

    private JsonNode externalize(JsonNode value, String runId, long[] bytes) {
        if (looksLikeReference(value)) {
            return JsonNodeFactory.instance.objectNode().set(LITERAL, value);
        }
        if (!value.isContainerNode() && !(value.isTextual() && value.textValue().length() >= MIN_CHARS)) {
            return value;
        }
        String json = write(value);
        if (json.length() < MIN_CHARS) {
            return value;
        }
        String hash = sha256(json);
        if (db.update("INSERT OR IGNORE INTO blobs (hash, json) VALUES (?, ?)", hash, json) > 0) {
            bytes[0] += json.length();
        }
        db.update("INSERT OR IGNORE INTO blob_refs (hash, run_id) VALUES (?, ?)", hash, runId);
        return JsonNodeFactory.instance.objectNode().put(REF, hash);
    }

    /**
     * Stores {@code value} once per content for run {@code runId} (whatever its size) and returns its hash; the
     * characters newly written, when the store did not have it yet, are added to {@code bytes}.
     */
    String put(JsonNode value, String runId, long[] bytes) {
        String json = write(value);
        String hash = sha256(json);
        if (db.update("INSERT OR IGNORE INTO blobs (hash, json) VALUES (?, ?)", hash, json) > 0) {
            bytes[0] += json.length();
        }
        db.update("INSERT OR IGNORE INTO blob_refs (hash, run_id) VALUES (?, ?)", hash, runId);
        return hash;
    }

    /** The value stored under {@code hash}, or a {@link StoreException} when the store lost it. */
    JsonNode get(String hash) {
        return internalizeValue(JsonNodeFactory.instance.objectNode().put(REF, hash));
    }

    /** {@code object} with every reference in its fields replaced by the value it stands for. */
    JsonNode internalize(JsonNode object) {
        if (object == null || !object.isObject()) {
            return object;
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            copy.set(field.getKey(), internalizeValue(field.getValue()));
        }
        return copy;
    }

    private JsonNode internalizeValue(JsonNode value) {
        if (value.isObject() && value.size() == 1 && value.has(LITERAL)) {
            return value.get(LITERAL);
        }
        if (!looksLikeReference(value)) {
            return value;
        }
        String hash = value.get(REF).asText();
        return db.query("SELECT json FROM blobs WHERE hash = ?", rs -> read(rs.getString(1)), hash).stream()
                .findFirst()
                .orElseThrow(() ->
                        new StoreException(db.file() + ": the run store lost a stored value (blob " + hash + ")"));
    }

    private static boolean looksLikeReference(JsonNode value) {
        return value.isObject() && value.size() == 1 && value.path(REF).isTextual();
    }

    static String write(JsonNode value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new StoreException("cannot write a value as JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new StoreException("the run store holds malformed JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static String sha256(String json) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
