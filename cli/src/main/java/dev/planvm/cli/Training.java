package dev.planvm.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The training run of the launcher's class-data archive: one JVM runs the command lines people start most, so
 * that the archive it dumps at exit ({@code -XX:ArchiveClassesAtExit}, or the AOT cache on JDK 25+) holds the
 * classes of each: {@code --version}, a one-step {@code run --no-store}, the same run kept in a run store
 * (SQLite) and the README example replayed from its cassette (when run from the repository). Output is
 * discarded; files go to a temporary directory that is deleted. Not a command: {@code ./planvm} runs it as
 * {@code java -cp planvm.jar dev.planvm.cli.Training}.
 */
final class Training {

    private static final String README_PLAN = "plans/stackvm-tidb-best-practices.json";
    private static final String README_CASSETTE = "plans/stackvm-tidb-best-practices.cassette.json";

    private Training() {}

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory("planvm-training");
        try {
            Path plan = dir.resolve("one-step.json");
            Files.writeString(
                    plan, "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"ok\"}}]");
            List<String[]> commands = new ArrayList<>();
            commands.add(new String[] {"--version"});
            commands.add(new String[] {"run", plan.toString(), "--no-store"});
            commands.add(new String[] {
                "run", plan.toString(), "--store", dir.resolve("runs.db").toString()
            });
            if (Files.isRegularFile(Path.of(README_PLAN)) && Files.isRegularFile(Path.of(README_CASSETTE))) {
                commands.add(new String[] {"run", README_PLAN, "--replay", README_CASSETTE, "--no-store"});
            }
            PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true);
            for (String[] command : commands) {
                Main.run(command, nowhere, nowhere, Map.of());
            }
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> {
                try {
                    Files.delete(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
