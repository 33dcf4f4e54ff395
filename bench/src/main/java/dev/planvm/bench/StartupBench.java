package dev.planvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The command line's fixed cost, before and after, side by side in one run: each measurement
 * alternates {@code java -jar cli/target/planvm.jar} (the old launcher: no class-data archive,
 * default JIT and collector) and {@code ./planvm} (the launcher: class-data archive, client compiler
 * and serial collector for short commands), and reports the median wall time.
 *
 * <ul>
 *   <li>{@code --version};</li>
 *   <li>{@code run} of a small replayed plan ({@code plans/spec-even-or-odd.json} with its cassette);</li>
 *   <li>{@code batch} of 2,000 small replayed plans (copies of that plan with its cassette): plans/s,
 *       JVM start included.</li>
 * </ul>
 *
 * <p>{@code bench/run --main dev.planvm.bench.StartupBench [--repeat N] [--plans N]}, from the repository
 * root (the launcher must have built the jar: run {@code ./planvm --version} once first).
 */
public final class StartupBench {

    public static void main(String[] args) throws Exception {
        int repeat = intArg(args, "--repeat", 9);
        int plans = intArg(args, "--plans", 2000);
        Path root = Path.of("").toAbsolutePath();
        Path jar = root.resolve("cli/target/planvm.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException("run ./planvm --version first: " + jar + " is missing");
        }
        List<String> before = List.of("java", "-jar", jar.toString());
        List<String> after = List.of(root.resolve("planvm").toString());
        Path dir = batchDirectory(root, plans);
        System.out.printf("start-up, median of %d, JDK %s, %d processors%n", repeat, Runtime.version(),
                Runtime.getRuntime().availableProcessors());
        compare("--version", before, after, repeat, List.of("--version"));
        compare("run (small replayed plan)", before, after, repeat, List.of("run", "plans/spec-even-or-odd.json",
                "--replay", "plans/spec-even-or-odd.cassette.json", "--no-store"));
        List<String> batch = List.of("batch", dir.toString(), "--replay-dir", dir.toString(), "--no-progress",
                "--out", dir.resolve("out.jsonl").toString());
        double[] times = compare("batch (" + plans + " replayed plans)", before, after, Math.max(3, repeat / 3), batch);
        System.out.printf(Locale.ROOT, "batch throughput, JVM start included: before %.0f plans/s, after %.0f plans/s%n",
                plans / times[0], plans / times[1]);
    }

    /** Medians (seconds) of {@code before} and {@code after} running {@code args}, alternated. */
    private static double[] compare(String what, List<String> before, List<String> after, int repeat, List<String> args)
            throws Exception {
        run(before, args);
        run(after, args);
        double[] b = new double[repeat];
        double[] a = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            b[i] = run(before, args);
            a[i] = run(after, args);
        }
        double mb = median(b);
        double ma = median(a);
        System.out.printf(Locale.ROOT, "%-32s before %6.3f s   after %6.3f s   (%.1fx)%n", what, mb, ma, mb / ma);
        return new double[] {mb, ma};
    }

    private static double run(List<String> command, List<String> args) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(command);
        full.addAll(args);
        long start = System.nanoTime();
        Process process = new ProcessBuilder(full).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        int code = process.waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", full) + " exited " + code);
        }
        return seconds;
    }

    /** {@code n} copies of a small plan, each with its cassette, in a temporary directory. */
    private static Path batchDirectory(Path root, int n) throws IOException {
        Path dir = Files.createTempDirectory("planvm-startup");
        String plan = Files.readString(root.resolve("plans/spec-even-or-odd.json"));
        String cassette = Files.readString(root.resolve("plans/spec-even-or-odd.cassette.json"));
        for (int i = 0; i < n; i++) {
            Files.writeString(dir.resolve(String.format("p%05d.json", i)), plan);
            Files.writeString(dir.resolve(String.format("p%05d.cassette.json", i)), cassette);
        }
        return dir;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static int intArg(String[] args, String name, int fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return fallback;
    }
}
