package dev.planvm.dialects;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which files of a directory are plans: the one rule of {@code planvm validate}, {@code batch} and
 * {@code test}, of the JUnit {@code @PlanTests} and of the Maven plugin. A directory's plans are, sorted
 * and not recursively, its {@code *.json} files that are neither the companions of a plan
 * ({@code X.cassette.json}, {@code X.expected.json}) nor, whatever their name, a trace, an agent trace or
 * a cassette (recognised by their {@code "format"}), its {@code *.yaml}, {@code *.yml}, {@code *.js} and
 * {@code *.idyll} files, and its {@code *.xml} files whose root is {@code <document>} (Idyll documents;
 * a {@code pom.xml} is not a plan). Agent tests ({@code {"format": "planvm-ask/1", ...}}) count only when asked for.
 */
public final class PlanDirectory {

    private static final Pattern RECORDING =
            Pattern.compile("\"format\"\\s*:\\s*\"planvm-(trace|cassette|agent-trace)/");
    private static final Pattern ASK = Pattern.compile("\"format\"\\s*:\\s*\"planvm-ask/");
    private static final Pattern DOCUMENT =
            Pattern.compile("(?s)\\A\\s*(<\\?xml.*?\\?>\\s*)?(<!--.*?-->\\s*)*<document[\\s/>].*");

    private PlanDirectory() {}

    /**
     * The plan files of {@code dir}, sorted.
     *
     * @param asks whether agent tests ({@code planvm-ask/1} documents) count
     * @throws UncheckedIOException when the directory cannot be listed
     */
    public static List<Path> plans(Path dir, boolean asks) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(f -> isPlanFile(f) && (asks || !isAsk(f)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Whether {@code file} is a plan (or an agent test) by the rule above. */
    public static boolean isPlanFile(Path file) {
        String name = file.getFileName().toString();
        if (name.toLowerCase(java.util.Locale.ROOT).endsWith(".xml")) {
            return Files.isRegularFile(file) && isDocument(file);
        }
        if (PlanSources.isDialectFile(name)) {
            return Files.isRegularFile(file);
        }
        return name.endsWith(".json")
                && !name.endsWith(".cassette.json")
                && !name.endsWith(".expected.json")
                && Files.isRegularFile(file)
                && !startsLike(file, RECORDING);
    }

    /** Whether an {@code .xml} file is an Idyll document: its root element, after a declaration and comments, is {@code <document>}. */
    public static boolean isDocument(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return DOCUMENT.matcher(new String(in.readNBytes(4096), StandardCharsets.UTF_8))
                    .matches();
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the file starts like an agent test ({@code "format": "planvm-ask/1"}). */
    public static boolean isAsk(Path file) {
        return startsLike(file, ASK);
    }

    /** Whether the file is an object whose first few kilobytes name such a format. */
    private static boolean startsLike(Path file, Pattern format) {
        try (InputStream in = Files.newInputStream(file)) {
            String head = new String(in.readNBytes(4096), StandardCharsets.UTF_8).stripLeading();
            return head.startsWith("{") && format.matcher(head).find();
        } catch (IOException e) {
            return false; // reading it for real reports the problem
        }
    }
}
