package dev.planvm.cli;

import dev.planvm.dialects.PlanSources;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * Command-line PATH arguments to plan files: a file stays as given; a directory stands for its plan
 * files (sorted, not recursive): {@code *.json} files that are neither the companions of a plan
 * ({@code X.cassette.json}, {@code X.expected.json}) nor, whatever their name, a trace, an agent trace or
 * a cassette (recognised by their {@code "format"}); agent tests ({@code planvm-ask/1}) only for {@code test}.
 * The plans of the other dialects, {@code *.yaml}, {@code *.yml} and {@code *.js}, are included. The same rule for {@code validate}, {@code batch} and
 * {@code test}: a PATH that does not exist, or PATHs that hold no plan file, are a usage error (exit 2).
 */
final class PlanFiles {

    private static final Pattern RECORDING =
            Pattern.compile("\"format\"\\s*:\\s*\"planvm-(trace|cassette|agent-trace)/");
    private static final Pattern ASK = Pattern.compile("\"format\"\\s*:\\s*\"planvm-ask/");

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
        List<String> files = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.filter(f -> isPlanFile(f) && (asks || !isAsk(f))).sorted().forEach(f -> files.add(f.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        return files;
    }

    static boolean isPlanFile(Path file) {
        String name = file.getFileName().toString();
        if (PlanSources.isDialectFile(name)) {
            return Files.isRegularFile(file);
        }
        return name.endsWith(".json")
                && !name.endsWith(".cassette.json")
                && !name.endsWith(".expected.json")
                && Files.isRegularFile(file)
                && !isRecording(file);
    }

    /** Whether the file starts like a trace or a cassette: an object whose first few kilobytes name such a format. */
    private static boolean isRecording(Path file) {
        return startsLike(file, RECORDING);
    }

    /** Whether the file starts like an agent test ({@code "format": "planvm-ask/1"}). */
    static boolean isAsk(Path file) {
        return startsLike(file, ASK);
    }

    private static boolean startsLike(Path file, Pattern format) {
        try (InputStream in = Files.newInputStream(file)) {
            String head = new String(in.readNBytes(4096), StandardCharsets.UTF_8).stripLeading();
            return head.startsWith("{") && format.matcher(head).find();
        } catch (IOException e) {
            return false; // reading it for real reports the problem
        }
    }
}
