package dev.planvm.knowledge.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.AtomicFiles;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * {@code kb.json}: what a knowledge base is — its store format, the embedding model and dimension that
 * built it, its chunking and HNSW settings. Written once when the knowledge base is created; every
 * reader checks it before touching the index.
 *
 * @param name         the knowledge base's name
 * @param model        the embedding model ({@code Embedder.model()})
 * @param dimension    the vectors' dimension
 * @param maxTokens    the chunk size, in tokens
 * @param overlapTokens the overlap between consecutive chunks, in tokens
 * @param hnswM        HNSW: neighbours per node
 * @param hnswBeamWidth HNSW: candidates considered while building
 * @param created      when it was created
 */
public record Manifest(
        String name,
        String model,
        int dimension,
        int maxTokens,
        int overlapTokens,
        int hnswM,
        int hnswBeamWidth,
        Instant created) {

    /** The store format this planvm reads and writes. */
    public static final String FORMAT = "planvm-kb/1";

    public static final String FILE = "kb.json";

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.KNOWLEDGE);
    private static final long MAX_BYTES = 64 * 1024;

    /** The manifest of the knowledge base {@code name} in {@code dir}. */
    public static Manifest read(Path dir, String name) {
        String what = "knowledge base '" + name + "'";
        Path file = dir.resolve(FILE);
        if (!Files.isDirectory(dir)) {
            throw new KnowledgeException("there is no " + what + " at " + dir
                    + ": index documents into it with `planvm kb index PATH... --kb " + name + "`");
        }
        JsonNode json;
        try {
            if (Files.size(file) > MAX_BYTES) {
                throw new KnowledgeException(what + " is damaged: " + file + " is larger than " + MAX_BYTES + " bytes");
            }
            json = MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new KnowledgeException(dir + " is not a planvm knowledge base (it has no " + FILE + ")");
        } catch (JsonProcessingException e) {
            throw new KnowledgeException(
                    what + " is damaged: " + file + " is not JSON (" + JsonErrors.malformed(e) + ")");
        } catch (IOException e) {
            throw new KnowledgeException(what + " cannot be read: " + file + ": " + e.getMessage(), true, e);
        }
        if (json == null || !json.isObject()) {
            throw new KnowledgeException(what + " is damaged: " + file + " is not a JSON object");
        }
        String format = json.path("format").asText("");
        if (!FORMAT.equals(format)) {
            throw new KnowledgeException(what + " at " + dir + " has store format '" + format
                    + "', but this planvm reads " + FORMAT + ": index the documents again into a new knowledge base");
        }
        try {
            return new Manifest(
                    text(json, what, "/name", file),
                    text(json, what, "/embedding/model", file),
                    integer(json, what, "/embedding/dimension", file),
                    integer(json, what, "/chunking/max_tokens", file),
                    integer(json, what, "/chunking/overlap_tokens", file),
                    integer(json, what, "/hnsw/m", file),
                    integer(json, what, "/hnsw/beam_width", file),
                    Instant.parse(text(json, what, "/created", file)));
        } catch (java.time.DateTimeException e) {
            throw new KnowledgeException(what + " is damaged: " + file + " at /created holds no ISO-8601 instant");
        }
    }

    /** Writes this manifest into {@code dir} (atomically). */
    public void write(Path dir) {
        ObjectNode json = MAPPER.createObjectNode();
        json.put("format", FORMAT);
        json.put("name", name);
        ObjectNode embedding = json.putObject("embedding");
        embedding.put("model", model);
        embedding.put("dimension", dimension);
        ObjectNode chunking = json.putObject("chunking");
        chunking.put("max_tokens", maxTokens);
        chunking.put("overlap_tokens", overlapTokens);
        ObjectNode hnsw = json.putObject("hnsw");
        hnsw.put("m", hnswM);
        hnsw.put("beam_width", hnswBeamWidth);
        json.put("created", created.toString());
        try {
            AtomicFiles.write(
                    dir.resolve(FILE), MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(json) + "\n");
        } catch (IOException e) {
            throw new KnowledgeException(e.getMessage(), true, e); // "cannot write FILE: why"
        }
    }

    private static String text(JsonNode json, String what, String pointer, Path file) {
        JsonNode node = json.at(pointer);
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new KnowledgeException(what + " is damaged: " + file + " at " + pointer + " holds no text");
        }
        return node.asText();
    }

    private static int integer(JsonNode json, String what, String pointer, Path file) {
        JsonNode node = json.at(pointer);
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.asInt() < 0) {
            throw new KnowledgeException(what + " is damaged: " + file + " at " + pointer + " holds no count");
        }
        return node.asInt();
    }
}
