package dev.planvm.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.regex.Pattern;

/**
 * Jackson's parse errors as one plain sentence: {@code malformed JSON at line 1, column 50: Unexpected
 * close marker '}': expected ']' (for Array starting at line 1, column 49)}. Jackson's messages name the
 * source ({@code [Source: REDACTED (StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION disabled); line: 1,
 * column: 49]}), also inside the message itself; that noise is cut to the line and column, and only the
 * first line of a message is kept, at most 300 characters of it.
 */
public final class JsonErrors {

    private static final Pattern SOURCE = Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)]");
    private static final int MAX_LENGTH = 300;
    private static final Pattern SOURCE_ONLY = Pattern.compile("\\s*\\[Source: [^]]*]");

    private JsonErrors() {}

    /** {@code malformed JSON at line L, column C: what Jackson says}, without the source noise. */
    public static String malformed(JsonProcessingException e) {
        return "malformed JSON" + where(e.getLocation()) + ": " + message(e);
    }

    /** {@code " at line L, column C"}, or nothing when Jackson knows no location. */
    public static String where(JsonLocation at) {
        return at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    /** What Jackson says, without the location suffix, the source noise and anything after the first line. */
    public static String message(JsonProcessingException e) {
        return clean(e.getOriginalMessage());
    }

    /**
     * The first line of any message, with Jackson's {@code [Source: ...; line: L, column: C]} written as
     * {@code line L, column C}: for messages of exceptions that may or may not come from Jackson.
     */
    public static String clean(String message) {
        if (message == null || message.isEmpty()) {
            return "invalid JSON";
        }
        String cleaned = SOURCE.matcher(message).replaceAll("line $1, column $2");
        cleaned = SOURCE_ONLY.matcher(cleaned).replaceAll("");
        int newline = cleaned.indexOf('\n');
        cleaned = (newline >= 0 ? cleaned.substring(0, newline) : cleaned).strip();
        return cleaned.length() > MAX_LENGTH ? cleaned.substring(0, MAX_LENGTH) + "…" : cleaned;
    }
}
