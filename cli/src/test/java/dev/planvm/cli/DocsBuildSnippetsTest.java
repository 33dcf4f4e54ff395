package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.cli.DocExamples.Example;
import dev.planvm.cli.DocExamples.Kind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every build snippet of the docs works as shown in a new project: each {@code <!-- runnable pom=NAME -->} pom.xml
 * (with the parts pasted into it and the files the page gives it, {@link DocExamples}) is built with {@code mvn
 * verify} by the Maven on the PATH (the README's minimum, 3.8, on our machines), against planvm as {@code mvn
 * install} put it in the local repository. A project with test classes must run tests: Maven 3.8's default
 * Surefire runs no JUnit 5 test and still says BUILD SUCCESS. Tagged {@code installed}: {@code .ci/run} runs it
 * after {@code mvn install}; {@code mvn verify} leaves it out.
 */
@Tag("installed")
class DocsBuildSnippetsTest {

    private static final Path DOCS = Path.of("..", "docs").toAbsolutePath().normalize();
    private static final Pattern TESTS_RUN = Pattern.compile("Tests run: (\\d+), Failures: 0, Errors: 0");

    @TempDir
    Path work;

    /** One project of a page: its pom.xml (parts pasted in) and its files, relative to the project. */
    record Project(String page, String name, String pom, Map<String, String> files) {}

    /** The projects of every page, in page order. */
    static List<Project> projects() {
        Map<String, Project> projects = new LinkedHashMap<>();
        for (Example example : DocExamples.in(DOCS)) {
            String text = String.join("\n", example.lines()) + "\n";
            if (example.kind() == Kind.POM && example.into() == null) {
                projects.put(example.file(), new Project(example.page(), example.file(), text, new LinkedHashMap<>()));
            } else if (example.kind() == Kind.POM) {
                Project project = projects.get(example.file());
                assertThat(project)
                        .as("%s: pom=%s before any whole pom of that name", example.name(), example.file())
                        .isNotNull();
                String end = "</" + example.into() + ">";
                int at = project.pom().lastIndexOf(end);
                assertThat(at).as("%s: the pom has no %s", example.name(), end).isPositive();
                String pom =
                        project.pom().substring(0, at) + text + project.pom().substring(at);
                projects.put(example.file(), new Project(project.page(), project.name(), pom, project.files()));
            } else if (example.kind() == Kind.FILE) {
                int slash = example.file().indexOf('/');
                Project project = slash < 0 ? null : projects.get(example.file().substring(0, slash));
                if (project != null) {
                    project.files().put(example.file().substring(slash + 1), text);
                }
            }
        }
        return List.copyOf(projects.values());
    }

    @Test
    void the_pages_of_the_issue_show_whole_projects() {
        assertThat(projects()).extracting(Project::page).contains("guides/java.md", "guides/batch-and-tests.md");
    }

    @TestFactory
    Stream<DynamicTest> every_build_snippet_builds_in_a_new_project() {
        return projects().stream()
                .map(project -> DynamicTest.dynamicTest(project.page() + " " + project.name(), () -> build(project)));
    }

    private void build(Project project) throws Exception {
        Path dir = work.resolve(project.name());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("pom.xml"), project.pom());
        for (Map.Entry<String, String> file : project.files().entrySet()) {
            Path path = dir.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.writeString(path, file.getValue());
        }
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-ntp", "verify"));
        String repository = System.getProperty("maven.repo.local");
        if (repository != null) {
            command.add("-Dmaven.repo.local=" + repository);
        }
        Path log = dir.resolve("build.log");
        Process mvn = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!mvn.waitFor(10, TimeUnit.MINUTES)) { // not hung: no timing target
            mvn.destroyForcibly();
        }
        String output = Files.readString(log);
        assertThat(mvn.exitValue())
                .as("mvn verify of %s:\n%s", project.name(), output)
                .isZero();
        if (hasTests(dir)) {
            int ran = 0;
            Matcher tests = TESTS_RUN.matcher(output);
            while (tests.find()) {
                ran = Math.max(ran, Integer.parseInt(tests.group(1)));
            }
            assertThat(ran)
                    .as("tests run by mvn verify of %s:\n%s", project.name(), output)
                    .isPositive();
        }
        if (project.pom().contains("<artifactId>planvm-maven-plugin</artifactId>")) {
            assertThat(output)
                    .as("planvm:validate and planvm:test ran")
                    .contains("planvm-maven-plugin")
                    .containsPattern("\\d+ valid, 0 invalid")
                    .containsPattern("\\d+ passed, 0 failed");
        }
    }

    private static boolean hasTests(Path dir) throws IOException {
        Path tests = dir.resolve("src/test/java");
        if (!Files.isDirectory(tests)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(tests)) {
            return files.anyMatch(file -> file.toString().endsWith(".java"));
        }
    }
}
