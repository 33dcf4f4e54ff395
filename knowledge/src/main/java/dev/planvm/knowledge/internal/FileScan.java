package dev.planvm.knowledge.internal;

import dev.planvm.knowledge.spi.IndexReport;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.TreeMap;

/**
 * Finds the documents under the paths given to the indexer: a file is taken as it is, a directory is
 * walked (symbolic links not followed, hidden files and directories skipped, at most 64 levels) for
 * files whose extension planvm reads. Each file gets its source name: its path relative to the base
 * directory, with {@code /} separators (absolute when it lies outside the base).
 */
public final class FileScan {

    private static final int MAX_DEPTH = 64;

    private FileScan() {}

    /** A document found, and its source name. */
    public record Found(Path file, String source) {}

    /** A path given: its source name and whether it is a directory (then everything under it is in scope). */
    public record Root(String source, boolean directory) {
        /** Whether {@code source} lies within this root. */
        public boolean covers(String other) {
            return directory ? source.isEmpty() || other.startsWith(source + "/") : other.equals(source);
        }
    }

    /**
     * What the scan found: the documents by source, the roots that exist (only sources under those may be
     * taken as removed), paths that could not be scanned, and whether the file limit cut the scan.
     */
    public record Result(List<Found> files, List<Root> roots, List<IndexReport.Problem> failures, boolean truncated) {}

    public static Result scan(List<Path> paths, Path base, int maxFiles) {
        Path absoluteBase = base.toAbsolutePath().normalize();
        TreeMap<String, Found> found = new TreeMap<>();
        List<Root> roots = new ArrayList<>();
        List<IndexReport.Problem> failures = new ArrayList<>();
        boolean[] truncated = {false};
        for (Path path : paths) {
            Path absolute = path.toAbsolutePath().normalize();
            String rootSource = sourceOf(absolute, absoluteBase);
            if (Files.isRegularFile(absolute)) {
                roots.add(new Root(rootSource, false));
                if (DocumentReader.typeOf(absolute).isEmpty()) {
                    failures.add(new IndexReport.Problem(rootSource, "is not a Markdown, text, HTML or PDF file"));
                } else if (found.size() < maxFiles) {
                    found.put(rootSource, new Found(absolute, rootSource));
                } else {
                    truncated[0] = true;
                }
            } else if (Files.isDirectory(absolute)) {
                roots.add(new Root(rootSource, true));
                walk(absolute, absoluteBase, maxFiles, found, failures, truncated);
            } else {
                failures.add(new IndexReport.Problem(path.toString(), "does not exist"));
            }
        }
        return new Result(List.copyOf(found.values()), roots, failures, truncated[0]);
    }

    private static void walk(
            Path root,
            Path base,
            int maxFiles,
            TreeMap<String, Found> found,
            List<IndexReport.Problem> failures,
            boolean[] truncated) {
        try {
            Files.walkFileTree(
                    root, EnumSet.noneOf(java.nio.file.FileVisitOption.class), MAX_DEPTH, new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                            return !dir.equals(root) && hidden(dir)
                                    ? FileVisitResult.SKIP_SUBTREE
                                    : FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                            if (attrs.isRegularFile()
                                    && !hidden(file)
                                    && DocumentReader.typeOf(file).isPresent()
                                    && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                                if (found.size() >= maxFiles) {
                                    truncated[0] = true;
                                    return FileVisitResult.TERMINATE;
                                }
                                String source = sourceOf(file, base);
                                found.put(source, new Found(file, source));
                            }
                            return FileVisitResult.CONTINUE;
                        }

                        @Override
                        public FileVisitResult visitFileFailed(Path file, IOException e) {
                            failures.add(new IndexReport.Problem(
                                    sourceOf(file.toAbsolutePath().normalize(), base),
                                    "cannot be read: " + e.getClass().getSimpleName()));
                            return FileVisitResult.CONTINUE;
                        }
                    });
        } catch (IOException e) {
            failures.add(new IndexReport.Problem(sourceOf(root, base), "cannot be scanned: " + e.getMessage()));
        }
    }

    /** The source name of an absolute, normalised path. */
    public static String sourceOf(Path absolute, Path absoluteBase) {
        Path named = absolute.startsWith(absoluteBase) ? absoluteBase.relativize(absolute) : absolute;
        return named.toString().replace('\\', '/');
    }

    private static boolean hidden(Path path) {
        Path name = path.getFileName();
        return name != null && name.toString().startsWith(".");
    }
}
