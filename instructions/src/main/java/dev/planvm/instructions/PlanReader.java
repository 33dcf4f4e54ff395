package dev.planvm.instructions;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Phase 1: text to JSON tree. Malformed JSON is reported with its line and column; duplicate keys
 * are refused (a plan whose meaning depends on which duplicate wins is not one to run).
 */
final class PlanReader {

    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private PlanReader() {
    }

    /** The document, or a reason it could not be read. */
    record Read(JsonNode document, Diagnostic problem) {
    }

    static Read read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return problem("file not found");
        } catch (IOException e) {
            return problem(Files.isDirectory(file) ? "is a directory, not a plan file" : "cannot read the file: " + e.getMessage());
        }
        return parse(bytes);
    }

    static Read read(InputStream in) {
        try {
            return parse(in.readAllBytes());
        } catch (IOException e) {
            return problem("cannot read the plan: " + e.getMessage());
        }
    }

    static Read parse(byte[] bytes) {
        if (isBlank(bytes)) {
            return problem("the file is empty; a plan is a JSON array of instructions");
        }
        try (JsonParser parser = MAPPER.createParser(bytes)) {
            return new Read(MAPPER.readTree(parser), null);
        } catch (JsonProcessingException e) {
            return problem(malformed(e));
        } catch (IOException e) {
            return problem("cannot read the plan: " + e.getMessage());
        }
    }

    private static String malformed(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String reason = e.getOriginalMessage();
        int newline = reason.indexOf('\n');
        if (newline >= 0) {
            reason = reason.substring(0, newline);
        }
        String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return "malformed JSON" + where + ": " + reason;
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    private static Read problem(String message) {
        return new Read(null, Diagnostic.error(null, "", message));
    }
}
