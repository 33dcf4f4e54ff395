package dev.planvm.cli;

import dev.planvm.dialects.PlanDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;

/**
 * Command-line PATH arguments to plan files: a file stays as given; a directory stands for its plan
 * files by the rule of {@link PlanDirectory} (agent tests, {@code planvm-ask/1}, only for {@code test}).
 * The same rule for {@code validate}, {@code batch} and {@code test}: a PATH that does not exist, or
 * PATHs that hold no plan file, are a usage error (exit 2).
 */
final class PlanFiles {

    private PlanFiles() {}

    /**
     * The plan files {@code paths} stand for, each once, in order.
     *
     * @param stdin whether {@code -} (standard input) is accepted as a PATH
     */
    static List<String> of(List<String> paths, boolean stdin, CommandLine commandLine) {
        return of(paths, stdin, false, commandLine);
    }

    /**
     * As {@link #of(List, boolean, CommandLine)}; with {@code asks}, a directory's agent tests
     * ({@code planvm-ask/1} documents, see {@code planvm test}) count too (otherwise they are left out).
     */
    static List<String> of(List<String> paths, boolean stdin, boolean asks, CommandLine commandLine) {
        Set<String> files = new LinkedHashSet<>();
        for (String path : paths) {
            if (path.equals("-")) {
                if (!stdin) {
                    throw new CommandLine.ParameterException(
                            commandLine, "this command reads plan files, not standard input ('-')");
                }
                files.add(path);
                continue;
            }
            Path p = Path.of(path);
            if (!Files.exists(p)) {
                throw new CommandLine.ParameterException(commandLine, path + ": no such file or directory");
            }
            if (Files.isDirectory(p)) {
                files.addAll(inDirectory(p, asks));
            } else {
                files.add(path);
            }
        }
        if (files.isEmpty()) {
            throw new CommandLine.ParameterException(commandLine, "no plan file in " + String.join(", ", paths));
        }
        return List.copyOf(files);
    }

    private static List<String> inDirectory(Path dir, boolean asks) {
        return PlanDirectory.plans(dir, asks).stream().map(Path::toString).toList();
    }

    /** Whether the file starts like an agent test ({@code "format": "planvm-ask/1"}). */
    static boolean isAsk(Path file) {
        return PlanDirectory.isAsk(file);
    }
}
