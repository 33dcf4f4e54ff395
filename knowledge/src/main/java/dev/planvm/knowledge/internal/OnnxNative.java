package dev.planvm.knowledge.internal;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loads ONNX Runtime's native libraries so that no process leaves a directory behind in the temp
 * folder. ONNX Runtime (1.20) extracts them into a new {@code onnxruntime-java*} directory and asks the
 * JVM to delete the files and the directory on exit — the directory first, while it still holds the
 * files, so every process left an empty one. Here they are extracted into a directory of planvm's,
 * loaded from there ({@code onnxruntime.native.path}), then deleted at once (a loaded library needs no
 * file on Linux and macOS; elsewhere they go on exit, files before their directory). ONNX Runtime's own
 * directory stays empty and goes on exit. A user who set {@code onnxruntime.native.path} keeps it.
 */
final class OnnxNative {

    private static final String PATH_PROPERTY = "onnxruntime.native.path";
    private static boolean loaded;

    private OnnxNative() {}

    /** Loads the runtime (once per JVM) before the embedding model does; a failure leaves it to ONNX Runtime. */
    static synchronized void load() {
        if (loaded || System.getProperty(PATH_PROPERTY) != null) {
            return;
        }
        loaded = true;
        String platform = platform();
        if (platform == null) {
            return;
        }
        List<Path> files = new ArrayList<>();
        Path dir = null;
        try {
            dir = Files.createTempDirectory("planvm-onnxruntime");
            dir.toFile().deleteOnExit(); // registered first, so deleted last: after the files
            for (String library : List.of("onnxruntime", "onnxruntime4j_jni")) {
                String name = System.mapLibraryName(library).replace("jnilib", "dylib");
                try (InputStream in =
                        OrtEnvironment.class.getResourceAsStream("/ai/onnxruntime/native/" + platform + "/" + name)) {
                    if (in == null) {
                        return; // not in the jar: ONNX Runtime looks on the library path itself
                    }
                    Path file = dir.resolve(name);
                    files.add(file);
                    file.toFile().deleteOnExit();
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            System.setProperty(PATH_PROPERTY, dir.toString());
            try {
                OrtEnvironment.getEnvironment();
            } finally {
                System.clearProperty(PATH_PROPERTY);
            }
        } catch (IOException | RuntimeException | LinkageError e) {
            // ONNX Runtime extracts its libraries itself when the model loads, and says what failed
        } finally {
            for (Path file : files) {
                deleteQuietly(file);
            }
            if (dir != null) {
                deleteQuietly(dir);
            }
        }
    }

    /** ONNX Runtime's name for this OS and architecture ({@code linux-x64}), or null when it has none. */
    private static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        String o = os.contains("mac") || os.contains("darwin")
                ? "osx"
                : os.contains("win") ? "win" : os.contains("nux") ? "linux" : null;
        String a = arch.startsWith("amd64") || arch.startsWith("x86_64")
                ? "x64"
                : arch.startsWith("aarch64") ? "aarch64" : null;
        return o == null || a == null ? null : o + "-" + a;
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException stillInUse) {
            // deleted on exit (registered above)
        }
    }
}
