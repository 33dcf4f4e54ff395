package dev.planvm.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;

/**
 * The start of a value written as compact JSON, for messages. Only what is shown is written: a
 * value whose whole JSON would be gigabytes (a tool's output, an array holding one long text a
 * thousand times) costs no more than the preview, so a message can never exhaust memory.
 */
public final class JsonPreview {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private JsonPreview() {}

    /**
     * {@code value} as compact JSON, cut after {@code maxChars} characters with {@code …} appended
     * (never inside a surrogate pair).
     */
    public static String compact(JsonNode value, int maxChars) {
        Bounded out = new Bounded(maxChars);
        try (JsonGenerator generator = MAPPER.createGenerator(out)) {
            MAPPER.writeTree(generator, value);
        } catch (Full full) {
            return cut(out.text, maxChars);
        } catch (IOException e) {
            return cut(out.text, maxChars); // a value Jackson cannot write: show what was written
        }
        return cut(out.text, maxChars);
    }

    /** {@code s} cut after {@code maxChars} characters with {@code …} appended, never inside a surrogate pair. */
    public static String cut(CharSequence s, int maxChars) {
        if (s.length() <= maxChars) {
            return s.toString();
        }
        int end = maxChars;
        if (end > 0 && Character.isHighSurrogate(s.charAt(end - 1))) {
            end--;
        }
        return s.subSequence(0, end) + "…";
    }

    /** A writer that keeps one character more than the preview needs, then stops the write. */
    private static final class Bounded extends Writer {
        private final StringBuilder text = new StringBuilder();
        private final int max;

        Bounded(int maxChars) {
            this.max = maxChars + 1;
        }

        @Override
        public void write(char[] chars, int offset, int length) throws IOException {
            int room = max - text.length();
            text.append(chars, offset, Math.min(room, length));
            if (length >= room) {
                throw new Full();
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }

    /** Thrown by the writer once the preview is full, to stop Jackson writing the rest. */
    private static final class Full extends IOException {
        private static final long serialVersionUID = 1L;

        Full() {
            super(null, null);
        }
    }
}
