package dev.planvm.dialects.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reading a source file within the size limit, and measuring one. */
public final class SourceText {

    private SourceText() {}

    /** The UTF-8 length of {@code s}, counting no further than {@code stopAt}. */
    public static long utf8Length(String s, long stopAt) {
        if (s.length() >= stopAt) {
            return s.length();
        }
        long n = 0;
        for (int i = 0; i < s.length() && n < stopAt; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /** The file's text, or null with a problem reported (missing, unreadable, too large, not UTF-8). */
    public static String read(Path file, long maxBytes, Problems problems) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) maxBytes + 1);
        } catch (NoSuchFileException e) {
            problems.fileError("the file does not exist");
            return null;
        } catch (IOException e) {
            problems.fileError("the file cannot be read: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
            return null;
        }
        return decode(bytes, maxBytes, problems);
    }

    /** The text of a stream (standard input), read up to one byte past the limit, or null with a problem reported. */
    public static String read(InputStream in, long maxBytes, Problems problems) {
        byte[] bytes;
        try {
            bytes = in.readNBytes((int) maxBytes + 1);
        } catch (IOException e) {
            problems.fileError("the plan cannot be read: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
            return null;
        }
        return decode(bytes, maxBytes, problems);
    }

    private static String decode(byte[] bytes, long maxBytes, Problems problems) {
        if (bytes.length > maxBytes) {
            problems.fileError("the plan is larger than the limit of " + describeBytes(maxBytes));
            return null;
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            problems.fileError("the file is not valid UTF-8 text");
            return null;
        }
    }

    /** {@code 5 MiB}, {@code 64 KiB} or {@code 1,000 bytes}. */
    public static String describeBytes(long n) {
        long kib = 1024;
        long mib = kib * kib;
        if (n >= mib && n % mib == 0) {
            return n / mib + " MiB";
        }
        if (n >= kib && n % kib == 0) {
            return n / kib + " KiB";
        }
        return String.format(java.util.Locale.ROOT, "%,d", n) + (n == 1 ? " byte" : " bytes");
    }
}
