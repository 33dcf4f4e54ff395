package dev.planvm.tools.config;

import dev.planvm.tools.ToolSetup.Problem;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A tools configuration that cannot be used, with every problem found in it: each a JSON pointer into
 * the file and a sentence. The message lists them all, one per line, like
 * {@code planvm.json at /httpTools/0/method: must be one of GET, POST, PUT, PATCH, DELETE}.
 */
public final class ToolsConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final transient List<Problem> problems;

    /**
     * @param file     the configuration file, or {@code null} when the problems are not in a file
     *                 (e.g. a tools path given on the command line)
     * @param problems at least one
     */
    public ToolsConfigException(Path file, List<Problem> problems) {
        super(describe(file, problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ToolsConfigException needs at least one problem");
        }
        this.file = file;
        this.problems = List.copyOf(problems);
    }

    /** The configuration file, or {@code null}. */
    public Path file() {
        return file;
    }

    public List<Problem> problems() {
        return problems;
    }

    /** One line per problem: {@code FILE at /pointer: sentence} ({@code FILE:} alone when the pointer is the root). */
    public List<String> lines() {
        return problems.stream().map(problem -> line(file, problem)).toList();
    }

    private static String describe(Path file, List<Problem> problems) {
        Objects.requireNonNull(problems, "problems");
        return problems.stream().map(problem -> line(file, problem)).collect(Collectors.joining("\n"));
    }

    private static String line(Path file, Problem problem) {
        String where = file == null ? "tools configuration" : file.toString();
        return problem.pointer().isEmpty()
                ? where + ": " + problem.message()
                : where + " at " + problem.pointer() + ": " + problem.message();
    }
}
