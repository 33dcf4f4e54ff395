package dev.planvm.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The examples of the docs marked runnable. A marker is an HTML comment (MkDocs renders nothing for
 * it) right before a fenced block:
 *
 * <ul>
 *   <li>{@code <!-- runnable -->}: the block is run. A {@code java} block is compiled and run; any
 *       other block is shell: its {@code ./planvm} lines run through the command line, in the page's
 *       own directory; in a block with {@code $ } prompts, the lines after a command are its output;
 *   <li>{@code <!-- runnable exit=2 -->}: each command of the block exits with 2 (default 0);
 *   <li>{@code <!-- runnable file=NAME -->}: the block is written to the file NAME in the page's
 *       directory, for the commands after it;
 *   <li>{@code <!-- runnable file=NAME} followed by lines and {@code -->}: a file the page does not
 *       show;
 *   <li>{@code <!-- runnable pom=NAME -->} before an {@code xml} block: the block is the whole {@code pom.xml} of a
 *       new Maven project NAME; {@code <!-- runnable pom=NAME in=ELEMENT -->}: the block is pasted into that
 *       pom, before the end of its (last) {@code ELEMENT} ({@code plugins}, {@code dependencies}); files named
 *       {@code NAME/...} (with {@code file=}) go into that project. {@link DocsBuildSnippetsTest} builds each
 *       project with {@code mvn verify} against planvm installed in the local repository (.ci/run);
 *   <li>{@code <!-- runnable llm=NAME -->}: the commands of the block talk to an OpenAI-compatible
 *       server on 127.0.0.1 (one per page, started when first asked for) that answers with the replies of
 *       the page's file NAME, in order: its parts between lines {@code ---}.
 * </ul>
 *
 * <p>What a shell example prints must be the lines the page shows after each {@code $ } command (when it
 * shows any); a Java
 * example runs with a {@code PrintStream out}, and what it prints must be the trailing comments of its
 * {@code out.println(...); // LINE} lines (comment lines right after one are its further lines).
 * A block of code that is not run carries {@code <!-- not run: REASON -->} instead ({@link #audit}).
 * Lines of a shell example other than {@code ./planvm ...} and {@code echo $?} (mvn, pipes) are not run.
 */
final class DocExamples {

    /** One marked block: what to do with it, where it is, its lines. */
    record Example(
            String page,
            int line,
            Kind kind,
            String file,
            OptionalInt exit,
            String llm,
            String info,
            List<String> lines,
            String into) {
        String name() {
            return page + ":" + line + (kind == Kind.FILE ? " (" + file + ")" : "");
        }
    }

    enum Kind {
        SHELL,
        JAVA,
        FILE,
        /** A Maven project's pom.xml, or a part of it ({@link Example#into}): built after {@code mvn install}. */
        POM
    }

    private static final Pattern MARKER = Pattern.compile("<!--\\s*runnable\\b(.*?)(-->)?\\s*$");
    private static final Pattern FILE = Pattern.compile("\\bfile=(\\S+)");
    private static final Pattern EXIT = Pattern.compile("\\bexit=(\\d+)");
    private static final Pattern LLM = Pattern.compile("\\bllm=(\\S+)");
    private static final Pattern POM = Pattern.compile("\\bpom=(\\S+)");
    private static final Pattern INTO = Pattern.compile("\\bin=(\\S+)");
    private static final Pattern FENCE = Pattern.compile("^(\\s*)(```+)\\s*([\\w-]*).*$");

    private static final Pattern NOT_RUN = Pattern.compile("<!--\\s*not run:\\s*(\\S.*?)\\s*-->");
    private static final Set<String> CODE = Set.of("bash", "sh", "shell", "console", "java", "json");

    /** A fenced block of code that is neither runnable nor says why not. */
    record Unmarked(String page, int line, String info, String first) {
        @Override
        public String toString() {
            return page + ":" + line + " ```" + info + " " + first;
        }
    }

    /** A block marked {@code <!-- not run: REASON -->}. */
    record NotRun(String page, int line, String reason) {}

    /** What the blocks of code of the pages under {@code docs} say about being run. */
    record Audit(List<Unmarked> unmarked, List<NotRun> notRun) {}

    private DocExamples() {}

    /**
     * The blocks of code of every page: a block is code when its language is a shell's, {@code java} or
     * {@code json}, an {@code xml} build snippet (it names an {@code <artifactId>}), or when it has none and
     * shows a {@code $ ./planvm} prompt. Each must be runnable or
     * carry {@code <!-- not run: REASON -->} right before it.
     */
    static Audit audit(Path docs) {
        try (Stream<Path> pages = Files.walk(docs)) {
            List<Unmarked> unmarked = new ArrayList<>();
            List<NotRun> notRun = new ArrayList<>();
            for (Path page :
                    pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                String name = docs.relativize(page).toString().replace('\\', '/');
                audit(name, Files.readAllLines(page), unmarked, notRun);
            }
            return new Audit(unmarked, notRun);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void audit(String page, List<String> lines, List<Unmarked> unmarked, List<NotRun> notRun) {
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = FENCE.matcher(lines.get(i));
            if (!fence.matches()) {
                continue;
            }
            int start = i;
            String first = start + 1 < lines.size() ? lines.get(start + 1).strip() : "";
            for (i++; i < lines.size() && !lines.get(i).strip().equals(fence.group(2)); i++) {}
            String info = fence.group(3);
            boolean build = info.equals("xml")
                    && lines.subList(start, i).stream().anyMatch(line -> line.contains("<artifactId>"));
            boolean code = CODE.contains(info) || build || (info.isEmpty() && first.startsWith("$ ./planvm"));
            if (!code) {
                continue;
            }
            int before = start - 1;
            while (before >= 0 && lines.get(before).isBlank()) {
                before--;
            }
            String marker = before >= 0 ? lines.get(before).strip() : "";
            Matcher reason = NOT_RUN.matcher(marker);
            if (reason.matches()) {
                notRun.add(new NotRun(page, start + 1, reason.group(1)));
            } else if (!(marker.startsWith("<!--") && MARKER.matcher(marker).find() && marker.endsWith("-->"))) {
                unmarked.add(new Unmarked(page, start + 1, info, first));
            }
        }
    }

    /** The marked examples of every page under {@code docs}, page by page, in page order. */
    static List<Example> in(Path docs) {
        try (Stream<Path> pages = Files.walk(docs)) {
            List<Example> all = new ArrayList<>();
            for (Path page :
                    pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                all.addAll(of(docs.relativize(page).toString().replace('\\', '/'), Files.readAllLines(page)));
            }
            return all;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The marked examples of one page. */
    static List<Example> of(String page, List<String> lines) {
        List<Example> examples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher marker = MARKER.matcher(lines.get(i).strip());
            if (!lines.get(i).strip().startsWith("<!--") || !marker.find()) {
                continue;
            }
            String options = marker.group(1);
            Matcher file = FILE.matcher(options);
            Matcher exit = EXIT.matcher(options);
            Matcher llm = LLM.matcher(options);
            Matcher pom = POM.matcher(options);
            Matcher into = INTO.matcher(options);
            String replies = llm.find() ? llm.group(1) : null;
            String project = pom.find() ? pom.group(1) : null;
            String element = into.find() ? into.group(1) : null;
            String fileName = file.find() ? file.group(1) : null;
            OptionalInt exitCode = exit.find() ? OptionalInt.of(Integer.parseInt(exit.group(1))) : OptionalInt.empty();
            int markerLine = i + 1;
            if (marker.group(2) == null) { // a hidden file: the comment's lines up to -->
                List<String> content = new ArrayList<>();
                for (i++; i < lines.size() && !lines.get(i).strip().equals("-->"); i++) {
                    content.add(lines.get(i));
                }
                if (fileName == null) {
                    throw new IllegalArgumentException(
                            page + ":" + markerLine + ": a runnable comment with lines needs file=NAME");
                }
                examples.add(new Example(page, markerLine, Kind.FILE, fileName, exitCode, null, "", content, null));
                continue;
            }
            int start = i + 1;
            while (start < lines.size() && lines.get(start).isBlank()) {
                start++;
            }
            Matcher fence = start < lines.size() ? FENCE.matcher(lines.get(start)) : null;
            if (fence == null || !fence.matches()) {
                throw new IllegalArgumentException(
                        page + ":" + markerLine + ": a runnable marker must come right before a fenced block");
            }
            String indent = fence.group(1);
            String info = fence.group(3);
            List<String> content = new ArrayList<>();
            int end = start + 1;
            for (; end < lines.size() && !lines.get(end).strip().equals(fence.group(2)); end++) {
                String line = lines.get(end);
                content.add(line.startsWith(indent) ? line.substring(indent.length()) : line.strip());
            }
            if (end == lines.size()) {
                throw new IllegalArgumentException(page + ":" + (start + 1) + ": the fenced block never ends");
            }
            Kind kind = project != null
                    ? Kind.POM
                    : fileName != null ? Kind.FILE : info.equals("java") ? Kind.JAVA : Kind.SHELL;
            examples.add(new Example(
                    page,
                    start + 1,
                    kind,
                    project != null ? project : fileName,
                    exitCode,
                    replies,
                    info,
                    content,
                    element));
            i = end;
        }
        return examples;
    }
}
