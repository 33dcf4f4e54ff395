package dev.planvm.dialects.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The JSON "dialect": StackVM JSON is already the target, so the document is passed on as it is
 * (the plan loader validates it); what this adds is the line of each instruction, found by a
 * streaming pass, so traces can name lines for every dialect alike.
 */
public final class JsonPassThrough {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.PLAN_FILE);

    private JsonPassThrough() {}

    public static CompileResult compile(String source, FrontEndOptions options) {
        Problems problems = new Problems();
        JsonNode document;
        try {
            document = MAPPER.readTree(source);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            Pos pos = at == null || at.getLineNr() < 1 ? null : new Pos(at.getLineNr(), Math.max(1, at.getColumnNr()));
            problems.error(pos, "not valid JSON: " + JsonErrors.message(e));
            return new CompileResult(null, Map.of(), problems.list());
        }
        if (document == null || document.isMissingNode()) {
            problems.fileError("the plan is empty");
            return new CompileResult(null, Map.of(), problems.list());
        }
        return new CompileResult(document, lines(source), problems.list());
    }

    /** seq_no to the line of its instruction object, for a plan array or a {@code {"plan": [...]}} wrapper. */
    private static Map<Integer, Integer> lines(String source) {
        Map<Integer, Integer> lines = new HashMap<>();
        try (JsonParser p = MAPPER.getFactory().createParser(source)) {
            int depth = 0;
            int instructionDepth = -1;
            int objectLine = 0;
            String rootField = null;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                switch (t) {
                    case START_ARRAY -> {
                        depth++;
                        if (instructionDepth < 0 && (depth == 1 || (depth == 2 && "plan".equals(rootField)))) {
                            instructionDepth = depth + 1;
                        }
                    }
                    case START_OBJECT -> {
                        depth++;
                        if (depth == instructionDepth) {
                            objectLine = p.currentTokenLocation().getLineNr();
                        }
                    }
                    case END_ARRAY, END_OBJECT -> depth--;
                    case FIELD_NAME -> {
                        if (depth == 1) {
                            rootField = p.currentName();
                        }
                        if (depth == instructionDepth
                                && "seq_no".equals(p.currentName())
                                && p.nextToken() == JsonToken.VALUE_NUMBER_INT
                                && p.getNumberType() == JsonParser.NumberType.INT) {
                            lines.putIfAbsent(p.getIntValue(), objectLine);
                        }
                    }
                    default -> {}
                }
            }
        } catch (IOException e) {
            return Map.of(); // already parsed once: cannot happen, and lines are only a help
        }
        return lines;
    }
}
