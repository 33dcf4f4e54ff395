package dev.planvm.bench;

import dev.planvm.json.AtomicFiles;
import dev.planvm.tools.Redactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * What hardened outputs cost: redacting text with 1 and 10 secrets (every form: whole,
 * JSON-escaped, line by line, cut), and writing a trace-sized file atomically (temporary file,
 * fsync, rename) versus through a FIFO-like path is not measured (it is the device's speed).
 *
 * <p>{@code bench/run --main dev.planvm.bench.OutputsBench [--mib N]}
 */
public final class OutputsBench {

    public static void main(String[] args) throws Exception {
        int mib = args.length > 1 && args[0].equals("--mib") ? Integer.parseInt(args[1]) : 4;
        String text = words(mib * 1024 * 1024, new Random(42));
        System.out.printf("redaction of %d MiB of text (JDK %s), ms per MiB, best of 10:%n", mib, Runtime.version());
        for (int count : new int[] {1, 10}) {
            Map<String, String> secrets = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                secrets.put("S" + i, "tok-" + Long.toHexString(new Random(i).nextLong()) + "-line\nsecond-line-" + i);
            }
            Redactor redactor = Redactor.of(secrets);
            String withSecrets =
                    text.substring(0, text.length() / 2) + secrets.get("S0") + text.substring(text.length() / 2);
            double best = Double.MAX_VALUE;
            for (int round = 0; round < 10; round++) {
                long start = System.nanoTime();
                String redacted = redactor.redact(withSecrets);
                best = Math.min(best, (System.nanoTime() - start) / 1e6);
                if (redacted.contains("tok-")) {
                    throw new IllegalStateException("not redacted");
                }
            }
            System.out.printf("  %2d secrets: %.1f ms/MiB%n", count, best / mib);
        }
        Path dir = Files.createTempDirectory("planvm-outputs-bench");
        Path file = dir.resolve("trace.json");
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 10; round++) {
            long start = System.nanoTime();
            AtomicFiles.write(file, text);
            best = Math.min(best, (System.nanoTime() - start) / 1e6);
        }
        System.out.printf("atomic write of %d MiB (temp file, fsync, rename): %.1f ms, best of 10%n", mib, best);
        Files.deleteIfExists(file);
        Files.deleteIfExists(dir);
    }

    private static String words(int length, Random random) {
        StringBuilder sb = new StringBuilder(length);
        while (sb.length() < length) {
            int n = 2 + random.nextInt(8);
            for (int i = 0; i < n; i++) {
                sb.append((char) ('a' + random.nextInt(26)));
            }
            sb.append(random.nextInt(12) == 0 ? '\n' : ' ');
        }
        sb.setLength(length);
        return sb.toString();
    }
}
