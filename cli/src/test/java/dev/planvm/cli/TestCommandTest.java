package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

class TestCommandTest {

    private static final Path PLANS = Path.of("../plans");

    @TempDir
    Path dir;

    /** The example plans that have an expectation beside them. */
    private static long examplesWithExpectations() throws Exception {
        try (Stream<Path> files = Files.list(PLANS)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".expected.json"))
                    .count();
        }
    }

    /** A copy of plans/ to change (with its folders: a PPE script imports scripts from ppe-lib/). */
    private Path copyOfPlans() throws Exception {
        Path copy = dir.resolve("plans");
        try (Stream<Path> files = Files.walk(PLANS)) {
            for (Path file : files.toList()) {
                Files.copy(file, copy.resolve(PLANS.relativize(file).toString()));
            }
        }
        return copy;
    }

    private static String lastLine(String text) {
        List<String> lines = text.lines().toList();
        return lines.get(lines.size() - 1);
    }

    @Test
    void every_repository_example_passes() throws Exception {
        CliRun run = CliRun.of("test", "../plans");
        long examples = examplesWithExpectations();
        assertThat(examples).isGreaterThanOrEqualTo(6);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()
                        .lines()
                        .filter(line -> line.startsWith("PASS ../plans/"))
                        .count())
                .isEqualTo(examples);
        assertThat(lastLine(run.out())).isEqualTo(examples + " passed, 0 failed");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void a_changed_expectation_fails_with_a_readable_diff_and_exit_1() throws Exception {
        Path plans = copyOfPlans();
        Files.writeString(plans.resolve("spec-assign.expected.json"), "{\"final_answer\": 43}");
        Path tidb = plans.resolve("stackvm-tidb-best-practices.expected.json");
        Files.writeString(tidb, Files.readString(tidb).replace("## Indexing", "## Indexes"));
        CliRun run = CliRun.of("test", plans.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out())
                .contains("FAIL " + plans.resolve("spec-assign.json") + "\n  /final_answer: expected 43, got 42\n");
        assertThat(run.out())
                .contains("FAIL " + plans.resolve("stackvm-tidb-best-practices.json") + "\n"
                        + "  /final_answer: text differs (- expected, + actual):\n")
                .contains("\n    -## Indexes\n    +## Indexing\n");
        assertThat(run.out()).contains("PASS " + plans.resolve("spec-even-or-odd.json"));
        assertThat(lastLine(run.out())).isEqualTo((examplesWithExpectations() - 2) + " passed, 2 failed");
    }

    @Test
    void a_plan_calling_tools_without_its_cassette_fails_with_the_rejection() throws Exception {
        Path plans = copyOfPlans();
        Files.delete(plans.resolve("spec-sales-insights.cassette.json"));
        CliRun run = CliRun.of("test", plans.resolve("spec-sales-insights.json").toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out())
                .contains(
                        "  status: expected \"succeeded\", got \"rejected\" (seq_no 2: tool 'llm_generate' is not installed");
        assertThat(lastLine(run.out())).isEqualTo("0 passed, 1 failed");
    }

    @Test
    void update_rewrites_the_expectation_and_test_then_passes() throws Exception {
        Path plans = copyOfPlans();
        Path expectation = plans.resolve("spec-assign.expected.json");
        String original = Files.readString(expectation);
        Files.writeString(expectation, "{\"final_answer\": 43}");
        CliRun update = CliRun.of("test", "--update", plans.toString());
        assertThat(update.exitCode()).isZero();
        assertThat(update.out())
                .contains("UPDATED " + plans.resolve("spec-assign.json"))
                .contains("UNCHANGED " + plans.resolve("spec-even-or-odd.json"));
        assertThat(lastLine(update.out()))
                .isEqualTo("1 updated, 0 created, " + (examplesWithExpectations() - 1) + " unchanged");
        assertThat(Files.readString(expectation)).isEqualTo(original);
        CliRun test = CliRun.of("test", plans.toString());
        assertThat(test.exitCode()).isZero();
        assertThat(lastLine(test.out())).isEqualTo(examplesWithExpectations() + " passed, 0 failed");
    }

    @Test
    void a_plan_without_an_expectation_is_skipped_and_update_gives_it_one() throws Exception {
        Path plans = copyOfPlans();
        Files.writeString(
                plans.resolve("new.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": [1, 2]}}]");
        CliRun run = CliRun.of("test", plans.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("SKIP " + plans.resolve("new.json") + " (no new.expected.json)\n");
        assertThat(lastLine(run.out())).isEqualTo(examplesWithExpectations() + " passed, 0 failed, 1 skipped");
        CliRun update = CliRun.of("test", "--update", plans.resolve("new.json").toString());
        assertThat(update.out()).startsWith("CREATED " + plans.resolve("new.json") + "\n");
        assertThat(lastLine(CliRun.of("test", plans.toString()).out()))
                .isEqualTo((examplesWithExpectations() + 1) + " passed, 0 failed");
    }

    @Test
    void junit_xml_is_written_with_one_testcase_per_plan() throws Exception {
        Path plans = copyOfPlans();
        Files.writeString(plans.resolve("spec-assign.expected.json"), "{\"final_answer\": \"<&\\\"ü\\\">\"}");
        Path report = dir.resolve("out/junit.xml");
        CliRun run = CliRun.of("test", "--junit-xml", report.toString(), plans.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        Element suite = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(report.toFile())
                .getDocumentElement();
        assertThat(suite.getAttribute("tests")).isEqualTo(String.valueOf(examplesWithExpectations()));
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(suite.getElementsByTagName("failure").item(0).getTextContent())
                .isEqualTo("/final_answer: expected \"<&\\\"ü\\\">\", got 42");
    }

    @Test
    void vars_and_max_steps_apply_to_every_plan() throws Exception {
        Files.writeString(
                dir.resolve("add.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${n + 1}\"}}]");
        Files.writeString(dir.resolve("add.expected.json"), "{\"final_answer\": 8}");
        assertThat(CliRun.of("test", "--var", "n=7", dir.toString()).exitCode()).isZero();
        CliRun limited = CliRun.of("test", "--var", "n=7", "--max-steps", "1", dir.toString());
        assertThat(limited.exitCode()).isZero();
        Files.writeString(
                dir.resolve("loop.json"), "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 0}}]");
        Files.writeString(dir.resolve("loop.expected.json"), "{\"final_answer\": null}");
        CliRun loop = CliRun.of("test", "--var", "n=7", "--max-steps", "3", dir.toString());
        assertThat(loop.exitCode()).isEqualTo(1);
        assertThat(loop.out())
                .contains("FAIL " + dir.resolve("loop.json") + "\n  status: expected \"succeeded\", got \"failed\"");
    }

    @Test
    void no_plan_found_is_a_usage_error() throws Exception {
        CliRun empty = CliRun.of("test", dir.toString());
        assertThat(empty.exitCode()).isEqualTo(2);
        assertThat(empty.err()).startsWith("test: no plan file in " + dir).contains("(see planvm test --help)");
        CliRun missing = CliRun.of("test", dir.resolve("nope.json").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).startsWith("test: " + dir.resolve("nope.json") + ": no such file or directory");
    }

    @Test
    void plans_that_all_lack_expectations_exit_2() throws Exception {
        Files.writeString(
                dir.resolve("a.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun run = CliRun.of("test", dir.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).endsWith("0 passed, 0 failed, 1 skipped\n");
        assertThat(run.err()).contains("no plan has an expectation");
    }

    @Test
    void update_and_junit_xml_together_are_a_usage_error() {
        CliRun run = CliRun.of(
                "test", "--update", "--junit-xml", dir.resolve("x.xml").toString(), "../plans");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("test: --junit-xml reports a test run; it does not go with --update");
    }
}
