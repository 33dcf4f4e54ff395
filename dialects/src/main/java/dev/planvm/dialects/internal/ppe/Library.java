package dev.planvm.dialects.internal.ppe;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a script named in a chain ({@code -> name}), an invocation ({@code [[@name]]}) or a type ({@code type:
 * name}) is found, as the reference's search path finds it: planvm's built-in library first (the resources {@code
 * lib/NAME.ai.yaml}: {@code char}, ...), then the folder of the script that names it ({@code NAME.ai.yaml}, or a
 * package folder {@code NAME/NAME.ai.yaml}).
 */
final class Library {

    /** The largest script read. */
    static final long MAX_BYTES = 5L * 1024 * 1024;

    /** A script found: its text and where it is ({@code <planvm>/NAME.ai.yaml} for the built-in ones). */
    record Found(String text, Path file, boolean builtIn) {}

    private Library() {}

    /** The script {@code name} for a script in {@code folder} (null: none), or null when there is none. */
    static Found find(String name, Path folder) {
        if (!FrontMatter.TOOL_NAME.matcher(name).matches() || name.contains("..")) {
            return null;
        }
        String builtIn = builtIn(name);
        if (builtIn != null) {
            return new Found(builtIn, Path.of("<planvm>", name + ".ai.yaml"), true);
        }
        if (folder == null) {
            return null;
        }
        for (Path candidate : new Path[] {
            folder.resolve(name + ".ai.yaml"),
            folder.resolve(name + ".ai.yml"),
            folder.resolve(name).resolve(name + ".ai.yaml")
        }) {
            if (Files.isRegularFile(candidate)) {
                try {
                    if (Files.size(candidate) > MAX_BYTES) {
                        return null;
                    }
                    return new Found(Files.readString(candidate, StandardCharsets.UTF_8), candidate, false);
                } catch (IOException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The text of the built-in script {@code name}, or null. */
    static String builtIn(String name) {
        try (InputStream in = Library.class.getResourceAsStream("lib/" + name + ".ai.yaml")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
