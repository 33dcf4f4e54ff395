package dev.planvm.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The files of the run browser and the report's renderer, kept in the jar under {@code dev/planvm/server/ui/}
 * (plain JavaScript and CSS: no build step, nothing fetched from elsewhere). Read once each.
 */
public final class UiAssets {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,40}\\.(js|css|html|svg)");
    private static final Map<String, Optional<String>> CACHE = new ConcurrentHashMap<>();

    private UiAssets() {}

    /** The text of asset {@code name} ({@code report.js}), or empty when there is none of that name. */
    public static Optional<String> find(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return CACHE.computeIfAbsent(name, UiAssets::read);
    }

    /** The text of asset {@code name}, which must exist. */
    public static String text(String name) {
        return find(name).orElseThrow(() -> new IllegalStateException("missing asset " + name));
    }

    /** Its content type, by extension. */
    public static String contentType(String name) {
        String extension = name.substring(name.lastIndexOf('.') + 1);
        return switch (extension) {
            case "js" -> "text/javascript; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            case "svg" -> "image/svg+xml";
            default -> "text/html; charset=utf-8";
        };
    }

    /** {@code 'sha256-BASE64'}: how a Content-Security-Policy allows this exact inline text. */
    public static String cspHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static Optional<String> read(String name) {
        try (InputStream in = UiAssets.class.getResourceAsStream("/dev/planvm/server/ui/" + name)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read asset " + name, e);
        }
    }
}
