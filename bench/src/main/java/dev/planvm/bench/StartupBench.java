package dev.planvm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The command line's fixed cost, each measure on its own and all together, side by side in one run:
 * each round runs every variant once, alternating, and the median wall time of each is reported.
 *
 * <ul>
 *   <li>{@code java -jar}: no measure (the old launcher);</li>
 *   <li>{@code + CDS}: the class-data archive the launcher made ({@code -XX:SharedArchiveFile});</li>
 *   <li>{@code + C1/serial}: the JIT settings the launcher picks for short commands;</li>
 *   <li>{@code ./planvm}: the launcher, everything (CDS, per-command JIT settings, its own bash).</li>
 * </ul>
 * for {@code --version}, {@code run} of a small replayed plan ({@code plans/spec-even-or-odd.json} with
 * its cassette) and {@code batch} of 2,000 small replayed plans (plans/s, JVM start included). Lazy
 * initialisation cannot be switched off; its effect is shown as the classes {@code --version} and
 * {@code run} load ({@code -Xlog:class+load}).
 *
 * <p>{@code bench/run --main dev.planvm.bench.StartupBench [--repeat N] [--plans N]}, from the repository
 * root (the launcher must have built the jar and its archive: run {@code ./planvm --version} once first).
 */
public final class StartupBench {

    private static final List<String> C1 = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    private record Variant(String name, List<String> command) {}

    public static void main(String[] args) throws Exception {
        int repeat = intArg(args, "--repeat", 9);
        int plans = intArg(args, "--plans", 2000);
        Path root = Path.of("").toAbsolutePath();
        Path jar = root.resolve("cli/target/planvm.jar");
        Path archive = root.resolve("cli/target/planvm-" + System.getProperty("java.version") + ".jsa");
        if (!Files.exists(jar) || !Files.exists(archive)) {
            throw new IllegalStateException(
                    "run ./planvm --version first (with this JDK): " + jar + " or " + archive + " is missing");
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cds =
                List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        List<Variant> variants = List.of(
                new Variant("java -jar", join(List.of(java), List.of(), List.of("-jar", jar.toString()))),
                new Variant("+ CDS", join(List.of(java), cds, List.of("-jar", jar.toString()))),
                new Variant("+ C1/serial", join(List.of(java), C1, List.of("-jar", jar.toString()))),
                new Variant("./planvm", List.of(root.resolve("planvm").toString())));
        Path dir = batchDirectory(root, plans);
        System.out.printf(
                "start-up, median of %d, JDK %s, %d processors; wall seconds%n",
                repeat, Runtime.version(), Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-30s", "");
        variants.forEach(v -> System.out.printf(Locale.ROOT, "%14s", v.name()));
        System.out.println();
        compare("--version", variants, repeat, List.of("--version"));
        List<String> run = List.of(
                "run", "plans/spec-even-or-odd.json", "--replay", "plans/spec-even-or-odd.cassette.json", "--no-store");
        compare("run (small replayed plan)", variants, repeat, run);
        List<String> batch = List.of(
                "batch",
                dir.toString(),
                "--replay-dir",
                dir.toString(),
                "--no-progress",
                "--out",
                dir.resolve("out.jsonl").toString());
        double[] times = compare("batch (" + plans + " plans)", variants, Math.max(3, repeat / 3), batch);
        System.out.printf(Locale.ROOT, "%-30s", "batch, plans/s");
        for (double t : times) {
            System.out.printf(Locale.ROOT, "%14.0f", plans / t);
        }
        System.out.println();
        System.out.printf(
                Locale.ROOT,
                "classes loaded (Jackson): --version %d (%d), run %d (%d)%n",
                classes(java, jar, List.of("--version"), ""),
                classes(java, jar, List.of("--version"), "com.fasterxml.jackson"),
                classes(java, jar, run, ""),
                classes(java, jar, run, "com.fasterxml.jackson"));
    }

    private static List<String> join(List<String> a, List<String> b, List<String> c) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        all.addAll(c);
        return all;
    }

    /** Medians (seconds) of each variant running {@code args}, alternated round by round. */
    private static double[] compare(String what, List<Variant> variants, int repeat, List<String> args)
            throws Exception {
        for (Variant v : variants) {
            run(v.command(), args); // warm the file cache
        }
        double[][] times = new double[variants.size()][repeat];
        for (int i = 0; i < repeat; i++) {
            for (int v = 0; v < variants.size(); v++) {
                times[v][i] = run(variants.get(v).command(), args);
            }
        }
        double[] medians = new double[variants.size()];
        System.out.printf(Locale.ROOT, "%-30s", what);
        for (int v = 0; v < variants.size(); v++) {
            medians[v] = median(times[v]);
            System.out.printf(Locale.ROOT, "%14.3f", medians[v]);
        }
        System.out.println();
        return medians;
    }

    /** How many classes {@code args} loads (whose name starts with {@code prefix}). */
    private static long classes(String java, Path jar, List<String> args, String prefix) throws Exception {
        List<String> command =
                new ArrayList<>(List.of(java, "-Xshare:off", "-Xlog:class+load=info:stdout", "-jar", jar.toString()));
        command.addAll(args);
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        long count;
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream())).lines()) {
            count = lines.filter(line -> line.contains("[class,load]") && line.contains("] " + prefix))
                    .count();
        }
        process.waitFor();
        return count;
    }

    private static double run(List<String> command, List<String> args) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(command);
        full.addAll(args);
        long start = System.nanoTime();
        Process process = new ProcessBuilder(full)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
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
