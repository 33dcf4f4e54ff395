package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.planvm.cli.DocExamples.Example;
import dev.planvm.cli.DocExamples.Kind;
import dev.planvm.llm.testing.FakeOpenAiServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example of docs/ marked runnable ({@link DocExamples}) runs and prints what the page shows, so the
 * docs cannot drift from the code. Shell examples run in-process through {@link Main}, each page in a
 * directory of its own ({@code plans/...} is the repository's); Java examples are compiled against
 * the test class path and run.
 */
class DocsExamplesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path DOCS = ROOT.resolve("docs");
    private static final Pattern RUN_ID = Pattern.compile("\\b[0-9a-f]{12}\\b");
    private static final Pattern PATH_LIKE = Pattern.compile("[\\w./-]*\\.[A-Za-z]{2,5}");

    @TempDir
    Path work;

    /** The loopback servers the pages asked for, stopped when every example has run. */
    private final List<AutoCloseable> peers = new ArrayList<>();

    @AfterEach
    void stopPeers() throws Exception {
        for (AutoCloseable peer : peers) {
            peer.close();
        }
    }

    /** Pages whose examples load the embedding model or start servers in JVMs of their own: mvn -Pslow. */
    private static final Set<String> SLOW_PAGES = Set.of("guides/knowledge.md", "guides/serving.md");

    @TestFactory
    Stream<DynamicNode> every_runnable_example_runs_as_the_page_shows() {
        return pages(page -> !SLOW_PAGES.contains(page));
    }

    @TestFactory
    @Tag("slow") // the embedding model, servers in JVMs of their own (mvn -Pslow)
    Stream<DynamicNode> every_runnable_example_of_the_slow_pages_runs_as_the_page_shows() {
        return pages(SLOW_PAGES::contains);
    }

    private Stream<DynamicNode> pages(java.util.function.Predicate<String> which) {
        Map<String, List<Example>> byPage = DocExamples.in(DOCS).stream()
                .filter(example -> which.test(example.page()))
                .collect(Collectors.groupingBy(Example::page, LinkedHashMap::new, Collectors.toList()));
        return byPage.entrySet().stream().map(page -> {
            Page state = new Page(work.resolve(page.getKey().replace('/', '_')), peers);
            return DynamicContainer.dynamicContainer(
                    page.getKey(),
                    page.getValue().stream()
                            .map(example -> DynamicTest.dynamicTest(example.name(), () -> state.run(example))));
        });
    }

    @Test
    void the_guides_of_the_issue_have_runnable_examples() {
        Set<String> pages = DocExamples.in(DOCS).stream()
                .filter(example -> example.kind() != Kind.FILE)
                .map(Example::page)
                .collect(Collectors.toSet());

        assertThat(pages)
                .contains(
                        "getting-started.md",
                        "guides/dialects.md",
                        "guides/tools.md",
                        "guides/durable-runs.md",
                        "guides/java.md");
    }

    @Test
    void every_block_of_code_in_the_docs_is_run_or_says_why_not() {
        DocExamples.Audit audit = DocExamples.audit(DOCS);

        assertThat(audit.unmarked())
                .as("blocks of code with neither <!-- runnable ... --> nor <!-- not run: REASON --> before them")
                .isEmpty();
    }

    @Test
    void every_java_block_of_the_docs_shows_its_imports() throws Exception {
        List<String> without = new ArrayList<>();
        try (Stream<Path> pages = Files.walk(DOCS)) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
                List<String> lines = Files.readAllLines(page);
                for (int i = 0; i < lines.size(); i++) {
                    if (!lines.get(i).strip().equals("```java")) {
                        continue;
                    }
                    int start = i;
                    boolean imports = false;
                    for (i++; i < lines.size() && !lines.get(i).strip().startsWith("```"); i++) {
                        imports |= lines.get(i).startsWith("import ");
                    }
                    if (!imports) {
                        without.add(DOCS.relativize(page) + ":" + (start + 1));
                    }
                }
            }
        }
        assertThat(without).as("```java blocks without their imports").isEmpty();
    }

    @Test
    void an_unmarked_block_of_code_is_found_and_a_reason_counts_as_a_mark() {
        List<DocExamples.Unmarked> unmarked = new ArrayList<>();
        List<DocExamples.NotRun> notRun = new ArrayList<>();
        DocExamples.audit(
                "p.md",
                List.of(
                        "```bash",
                        "./planvm run a.json",
                        "```",
                        "<!-- not run: needs a browser -->",
                        "",
                        "```java",
                        "x();",
                        "```",
                        "<!-- runnable -->",
                        "```",
                        "$ ./planvm validate a.json",
                        "```",
                        "```",
                        "$ ./planvm tools",
                        "```",
                        "```yaml",
                        "a: 1",
                        "```"),
                unmarked,
                notRun);

        assertThat(unmarked).extracting(DocExamples.Unmarked::line).containsExactly(1, 13);
        assertThat(notRun).extracting(DocExamples.NotRun::reason).containsExactly("needs a browser");
    }

    @Test
    void a_marker_names_its_file_and_hides_lines_only_with_a_name() {
        List<Example> examples = DocExamples.of(
                "p.md",
                List.of(
                        "<!-- runnable file=a.json -->",
                        "```json",
                        "[1]",
                        "```",
                        "<!-- runnable file=b.txt",
                        "hidden",
                        "-->",
                        "<!-- runnable exit=2 -->",
                        "```",
                        "$ ./planvm validate a.json",
                        "```"));

        assertThat(examples).extracting(Example::kind).containsExactly(Kind.FILE, Kind.FILE, Kind.SHELL);
        assertThat(examples.get(0).lines()).containsExactly("[1]");
        assertThat(examples.get(1).lines()).containsExactly("hidden");
        assertThat(examples.get(2).exit()).hasValue(2);
        assertThat(examples.get(2).line()).isEqualTo(9);
    }

    @Test
    void shell_words_follow_quotes_and_comments() {
        assertThat(ShellWords.split("run plan.json --var user='{\"name\": \"Ann\"}' --x \"a b\" c\\ d # note"))
                .containsExactly("run", "plan.json", "--var", "user={\"name\": \"Ann\"}", "--x", "a b", "c d");
    }

    /** One page's directory and what its commands left there. */
    private static final class Page {
        private final Path dir;
        private final List<AutoCloseable> peers;
        private FakeOpenAiServer llm;
        /** Where the page's {@code planvm serve} listens (host:port), once started. */
        private String server;

        private int lastExit;
        /** The run ids a page shows, each for the id its run really got. */
        private final Map<String, String> runIds = new HashMap<>();

        Page(Path dir, List<AutoCloseable> peers) {
            this.dir = dir;
            this.peers = peers;
        }

        /** The page's loopback LLM, started on first use, with the replies of the page's file {@code name} next. */
        private void scriptLlm(String name) throws Exception {
            if (llm == null) {
                llm = FakeOpenAiServer.start();
                peers.add(llm);
            }
            String text = Files.readString(dir.resolve(name));
            for (String reply : text.split("(?m)^---$")) {
                llm.reply(reply.strip());
            }
        }

        void run(Example example) throws Exception {
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir.resolve("target"));
            }
            switch (example.kind()) {
                case FILE -> {
                    Path file = dir.resolve(example.file());
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, String.join("\n", example.lines()) + "\n");
                }
                case SHELL -> {
                    if (example.llm() != null) {
                        scriptLlm(example.llm());
                    }
                    shell(example);
                }
                case JAVA -> java(example);
                case POM -> {} // built against the installed planvm by DocsBuildSnippetsTest (.ci/run)
            }
        }

        private void shell(Example example) throws Exception {
            boolean transcript = example.lines().stream().anyMatch(line -> line.startsWith("$ "));
            List<String> commands = new ArrayList<>();
            List<List<String>> shown = new ArrayList<>();
            String pending = "";
            for (String line : example.lines()) {
                if (transcript && !line.startsWith("$ ") && pending.isEmpty()) {
                    if (!shown.isEmpty()) {
                        shown.get(shown.size() - 1).add(line);
                    }
                    continue;
                }
                String text = pending + (transcript && pending.isEmpty() ? line.substring(2) : line);
                if (text.endsWith("\\")) {
                    pending = text.substring(0, text.length() - 1);
                    continue;
                }
                pending = "";
                if (!text.isBlank()) {
                    commands.add(text.strip());
                    shown.add(new ArrayList<>());
                }
            }
            for (int i = 0; i < commands.size(); i++) {
                List<String> words = ShellWords.split(commands.get(i)).stream()
                        .map(word -> runIds.getOrDefault(word, word))
                        .toList();
                String actual;
                if (words.equals(List.of("echo", "$?"))) {
                    actual = lastExit + "\n";
                } else if (words.size() > 2
                        && words.get(0).equals("./planvm")
                        && words.get(1).equals("serve")
                        && words.get(words.size() - 1).equals("&")) {
                    serve(words.subList(2, words.size() - 1));
                    continue;
                } else if (!words.isEmpty() && words.get(0).equals("curl")) {
                    actual = curl(words.subList(1, words.size()));
                } else if (!words.isEmpty() && words.get(0).equals("./planvm")) {
                    actual = planvm(words.subList(1, words.size()));
                    boolean exitShown =
                            i + 1 < commands.size() && commands.get(i + 1).equals("echo $?");
                    int expected = example.exit().orElse(0);
                    if (!exitShown && lastExit != expected) {
                        fail(example.name() + ": `" + commands.get(i) + "` exited with " + lastExit + ", not "
                                + expected + "; it printed:\n" + actual);
                    }
                } else {
                    continue; // mvn, chromium, pipes: not run here
                }
                if (transcript && !shown.get(i).isEmpty()) { // a command the page shows no output of: not compared
                    learnRunId(shown.get(i), actual);
                    assertThat(matches(shown.get(i), actual.lines().toList()))
                            .as(
                                    "%s: `%s` printed\n%s\nbut the page shows\n%s",
                                    example.name(), commands.get(i), actual, String.join("\n", shown.get(i)))
                            .isTrue();
                }
            }
        }

        /**
         * {@code ./planvm serve ... &}: a real {@code planvm serve} in a JVM of its own, on a free port that
         * stands for the page's {@code :8080} in the commands after it; stopped (SIGTERM) after the last example.
         */
        private void serve(List<String> options) throws Exception {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    Main.class.getName(),
                    "serve"));
            for (int i = 0; i < options.size(); i++) {
                boolean port = options.get(i).equals("--port");
                command.add(port ? "--port" : mapped(options.get(i)));
                if (port) {
                    command.add("0");
                    i++;
                }
            }
            if (!options.contains("--port")) {
                command.addAll(List.of("--port", "0"));
            }
            Path err = dir.resolve("serve.err");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectError(err.toFile())
                    .redirectOutput(dir.resolve("serve.out").toFile());
            builder.environment()
                    .put("PLANVM_STORE", dir.resolve(".planvm/runs.db").toString());
            builder.environment().put("PLANVM_CONFIG", writeConfigIfMissing().toString());
            Process process = builder.start();
            peers.add(() -> {
                process.destroy();
                process.waitFor(30, TimeUnit.SECONDS);
            });
            Pattern listening = Pattern.compile("listening on http://(127\\.0\\.0\\.1:\\d+)");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (server == null) {
                Matcher m = listening.matcher(Files.exists(err) ? Files.readString(err) : "");
                if (m.find()) {
                    server = m.group(1);
                } else if (!process.isAlive() || System.nanoTime() > deadline) {
                    fail("planvm serve did not start: " + Files.readString(err));
                } else {
                    Thread.sleep(20);
                }
            }
        }

        private Path writeConfigIfMissing() throws Exception {
            Path config = dir.resolve("planvm.json");
            return Files.exists(config) ? config : Files.writeString(config, "{}");
        }

        /**
         * {@code curl [-s] [-N] [-X METHOD] [-H 'K: V']... [-d BODY] URL}: the request, sent with the JDK's
         * HttpClient to the page's server; what it prints is the body.
         */
        private String curl(List<String> words) throws Exception {
            if (server == null) {
                fail("curl before ./planvm serve ... & on the page");
            }
            String method = null;
            String body = null;
            String url = null;
            List<String> headers = new ArrayList<>();
            for (int i = 0; i < words.size(); i++) {
                switch (words.get(i)) {
                    case "-s", "-N", "-sN" -> {}
                    case "-X" -> method = words.get(++i);
                    case "-H" -> headers.add(words.get(++i));
                    case "-d" -> body = words.get(++i);
                    default -> url = words.get(i);
                }
            }
            String target = url.replaceFirst("^(http://)?(localhost|127\\.0\\.0\\.1):8080", "http://" + server);
            HttpRequest.Builder request =
                    HttpRequest.newBuilder(URI.create(target)).timeout(Duration.ofSeconds(30));
            for (String header : headers) {
                int colon = header.indexOf(':');
                request.header(
                        header.substring(0, colon).strip(),
                        header.substring(colon + 1).strip());
            }
            request.method(
                    method != null ? method : body != null ? "POST" : "GET",
                    body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> response =
                    HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
            lastExit = 0;
            return response.body();
        }

        private void learnRunId(List<String> shown, String actual) {
            Matcher shownId = RUN_ID.matcher(String.join("\n", shown));
            Matcher actualId = RUN_ID.matcher(actual);
            if (shownId.find() && actualId.find()) {
                runIds.putIfAbsent(shownId.group(), actualId.group());
            }
        }

        private String planvm(List<String> words) {
            List<String> mappedWords =
                    new ArrayList<>(words.stream().map(this::mapped).toList());
            if (!words.isEmpty() && words.get(0).equals("kb") && !words.contains("--root")) {
                // the page's directory stands for the current directory of .planvm/kb
                mappedWords.addAll(List.of("--root", dir.resolve(".planvm/kb").toString()));
            }
            String[] args = mappedWords.toArray(String[]::new);
            Map<String, String> environment = new HashMap<>();
            environment.put("PLANVM_STORE", dir.resolve(".planvm/runs.db").toString());
            if (llm != null) {
                environment.put("OPENAI_BASE_URL", llm.baseUrl());
                environment.put("PLANVM_LLM_TIMEOUT_SECONDS", "5");
            }
            if (Files.exists(dir.resolve("planvm.json"))) {
                environment.put("PLANVM_CONFIG", dir.resolve("planvm.json").toString());
            }
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream both = new PrintStream(printed, true, StandardCharsets.UTF_8);
            lastExit = Main.run(args, both, both, environment);
            String text = printed.toString(StandardCharsets.UTF_8);
            for (Path base : List.of(dir, ROOT)) {
                text = text.replace(base + "/", "");
            }
            return text;
        }

        /** A word that names a file of the page's directory (or a new one with an extension): its full path. */
        private String mapped(String word) {
            int eq = word.indexOf('=');
            if (word.startsWith("--") && eq > 0) {
                return word.substring(0, eq + 1) + mapped(word.substring(eq + 1));
            }
            if (word.startsWith("-") || word.contains("=") || word.contains("://") || word.startsWith("/")) {
                return word;
            }
            if (word.equals("plans") || word.startsWith("plans/")) { // the repository's stored plans
                return ROOT.resolve(word).toString();
            }
            Path path = dir.resolve(word);
            boolean newFile = PATH_LIKE.matcher(word).matches() && Files.isDirectory(path.getParent());
            return Files.exists(path) || newFile ? path.toString() : word;
        }

        private void java(Example example) throws Exception {
            String name = "DocExample"
                    + Integer.toHexString(example.name().hashCode()).replace('-', '_') + "L" + example.line();
            List<String> imports = example.lines().stream()
                    .filter(l -> l.startsWith("import "))
                    .toList();
            List<String> body = example.lines().stream()
                    .filter(l -> !l.startsWith("import "))
                    .toList();
            String source = String.join("\n", imports) + "\n" // as shown: a snippet without its imports fails
                    + "public class " + name + " {\n"
                    + "public static void run(java.io.PrintStream out) throws Exception {\n"
                    + "// " + example.name() + "\n"
                    + String.join("\n", body) + "\n}\n}\n";
            Path src = dir.resolve("java/" + name + ".java");
            Path classes = dir.resolve("classes");
            Files.createDirectories(src.getParent());
            Files.createDirectories(classes);
            Files.writeString(src, source);
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            StringWriter diagnostics = new StringWriter();
            ByteArrayOutputStream javacOut = new ByteArrayOutputStream();
            int status = javac.run(
                    null,
                    javacOut,
                    javacOut,
                    "-d",
                    classes.toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    "--release",
                    "17",
                    "-parameters",
                    "-proc:none",
                    src.toString());
            diagnostics.write(javacOut.toString(StandardCharsets.UTF_8));
            if (status != 0) {
                fail(example.name() + " does not compile:\n" + diagnostics);
            }
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            try (URLClassLoader loader =
                    new URLClassLoader(new URL[] {classes.toUri().toURL()}, DocsExamplesTest.class.getClassLoader())) {
                loader.loadClass(name)
                        .getMethod("run", PrintStream.class)
                        .invoke(null, new PrintStream(printed, true, StandardCharsets.UTF_8));
            } catch (InvocationTargetException e) {
                throw new AssertionError(example.name() + " failed: " + e.getCause(), e.getCause());
            }
            List<String> expected = new ArrayList<>();
            boolean expecting = false;
            for (String line : body) {
                if (line.contains("out.println(") && line.contains("); // ")) {
                    expected.add(line.substring(line.indexOf("); // ") + 6));
                    expecting = true;
                } else if (expecting && line.strip().startsWith("// ")) { // the next line printed
                    expected.add(line.strip().substring(3));
                } else {
                    expecting = false;
                }
            }
            List<String> actual =
                    printed.toString(StandardCharsets.UTF_8).lines().toList();
            assertThat(matches(expected, actual))
                    .as(
                            "%s printed\n%s\nbut the page shows\n%s",
                            example.name(), String.join("\n", actual), String.join("\n", expected))
                    .isTrue();
        }
    }

    /**
     * Whether the output matches what the page shows: line by line, trailing blanks ignored; a shown line
     * {@code ...} stands for any lines, a shown line ending in {@code ...} for any end of the line, and
     * run ids (12 hex digits) for any run id.
     */
    static boolean matches(List<String> shown, List<String> actual) {
        return matches(shown, 0, actual, 0);
    }

    private static boolean matches(List<String> shown, int s, List<String> actual, int a) {
        if (s == shown.size()) {
            return a == actual.size();
        }
        String want = normal(shown.get(s));
        if (want.equals("...")) {
            for (int skip = a; skip <= actual.size(); skip++) {
                if (matches(shown, s + 1, actual, skip)) {
                    return true;
                }
            }
            return false;
        }
        if (a == actual.size()) {
            return false;
        }
        String got = normal(actual.get(a));
        boolean same = want.endsWith("...") ? got.startsWith(want.substring(0, want.length() - 3)) : got.equals(want);
        return same && matches(shown, s + 1, actual, a + 1);
    }

    private static String normal(String line) {
        return RUN_ID.matcher(line.stripTrailing()).replaceAll("<run id>");
    }

    /** Words of a shell line: single and double quotes, backslash escapes, {@code #} comments. */
    static final class ShellWords {
        private ShellWords() {}

        static List<String> split(String line) {
            List<String> words = new ArrayList<>();
            StringBuilder word = null;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (Character.isWhitespace(c)) {
                    if (word != null) {
                        words.add(word.toString());
                        word = null;
                    }
                    continue;
                }
                if (c == '#' && word == null) {
                    break;
                }
                word = word == null ? new StringBuilder() : word;
                if (c == '\'') {
                    int end = line.indexOf('\'', i + 1);
                    word.append(line, i + 1, end);
                    i = end;
                } else if (c == '"') {
                    for (i++; line.charAt(i) != '"'; i++) {
                        if (line.charAt(i) == '\\' && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
                            i++;
                        }
                        word.append(line.charAt(i));
                    }
                } else if (c == '\\' && i + 1 < line.length()) {
                    word.append(line.charAt(++i));
                } else {
                    word.append(c);
                }
            }
            if (word != null) {
                words.add(word.toString());
            }
            return words;
        }
    }
}
