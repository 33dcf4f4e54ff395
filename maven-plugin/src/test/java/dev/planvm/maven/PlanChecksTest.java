package dev.planvm.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The goals' logic on real plan directories, and the mojos' verdicts. */
class PlanChecksTest {

    private static final String ANSWER_42 =
            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 42}}]";

    @TempDir
    Path dir;

    private final List<String> log = new ArrayList<>();

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void validate_lists_every_error_of_every_plan_with_file_seq_no_and_pointer() throws IOException {
        write("good.json", ANSWER_42);
        write(
                "bad.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"x\": 1}},"
                        + " {\"seq_no\": 1, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 9}}]");
        write("worse.yaml", "result: ${len(}\n");

        PlanChecks.Result result = new PlanChecks(dir, log::add).validate();

        assertThat(result.passed()).isFalse();
        assertThat(result.summary()).isEqualTo("1 valid, 2 invalid");
        assertThat(result.failures())
                .anySatisfy(line -> assertThat(line).startsWith(dir.resolve("bad.json") + ": seq_no 1 at /1/"))
                .anySatisfy(line -> assertThat(line).startsWith(dir.resolve("worse.yaml") + ": "));
        assertThat(log).contains(dir.resolve("good.json") + ": ok (1 instructions)");
    }

    @Test
    void errors_and_failing_plans_go_to_the_log_at_error_level() throws IOException {
        write("good.json", ANSWER_42);
        write("bad.json", "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 9}}]");
        write("good.expected.json", "{\"final_answer\": 41}");
        List<String> levels = new ArrayList<>();
        PlanChecks.Report report = new PlanChecks.Report() {
            @Override
            public void info(String line) {
                levels.add("INFO " + line);
            }

            @Override
            public void error(String line) {
                levels.add("ERROR " + line);
            }
        };

        new PlanChecks(dir, report).validate();
        new PlanChecks(dir, report).test();

        assertThat(levels)
                .anySatisfy(line -> assertThat(line).startsWith("ERROR " + dir.resolve("bad.json") + ": seq_no 0 at"))
                .anySatisfy(line ->
                        assertThat(line).isEqualTo("INFO " + dir.resolve("good.json") + ": ok (1 instructions)"))
                .anySatisfy(line -> assertThat(line).isEqualTo("ERROR FAIL " + dir.resolve("good.json")))
                .noneSatisfy(line -> assertThat(line).startsWith("INFO " + dir.resolve("bad.json") + ": seq_no"));
    }

    @Test
    void test_replays_and_compares_as_planvm_test_does() throws IOException {
        write("right.json", ANSWER_42);
        write("right.expected.json", "{\"final_answer\": 42}");
        write("wrong.json", ANSWER_42);
        write("wrong.expected.json", "{\"final_answer\": 41}");
        write("loose.json", ANSWER_42);

        PlanChecks.Result result = new PlanChecks(dir, log::add).test();

        assertThat(result.summary()).isEqualTo("1 passed, 1 failed, 1 skipped");
        assertThat(result.failures())
                .containsExactly("FAIL " + dir.resolve("wrong.json") + "\n  /final_answer: expected 41, got 42");
        assertThat(log).anySatisfy(line -> assertThat(line).startsWith("PASS " + dir.resolve("right.json")));
        assertThat(log).anySatisfy(line -> assertThat(line).startsWith("SKIP " + dir.resolve("loose.json")));
    }

    @Test
    void test_fails_when_no_plan_has_an_expectation() throws IOException {
        write("loose.json", ANSWER_42);

        assertThat(new PlanChecks(dir, log::add).test().failures())
                .singleElement()
                .asString()
                .contains("no plan in " + dir + " has an expectation");
    }

    @Test
    void the_goals_fail_the_build_with_the_failures_and_pass_a_good_directory() throws Exception {
        write("wrong.json", ANSWER_42);
        write("wrong.expected.json", "{\"final_answer\": 41}");
        TestMojo test = new TestMojo();
        test.plansDirectory = dir.toFile();

        assertThatThrownBy(test::execute)
                .isInstanceOf(MojoFailureException.class)
                .hasMessage("planvm:test failed (0 passed, 1 failed):\nFAIL " + dir.resolve("wrong.json")
                        + "\n  /final_answer: expected 41, got 42");

        ValidateMojo validate = new ValidateMojo();
        validate.plansDirectory = dir.toFile();
        validate.execute(); // both plans load
        test.skip = true;
        test.execute();
    }

    @Test
    void test_takes_a_configuration_s_tools_and_variables_as_planvm_test_config_var_does() throws Exception {
        Path tools = Files.createDirectories(dir.resolve("setup/tools"));
        Files.writeString(
                tools.resolve("double.json"),
                "{\"name\": \"double\", \"inputs\": {\"type\": \"object\", \"properties\": {\"n\":"
                        + " {\"type\": \"integer\"}}, \"required\": [\"n\"]}, \"plan\": [{\"seq_no\": 0,"
                        + " \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${n * 2}\"}}]}");
        Files.writeString(dir.resolve("setup/planvm.json"), "{\"planTools\": [\"tools\"]}");
        Path plans = Files.createDirectories(dir.resolve("plans"));
        Files.writeString(
                plans.resolve("twice.json"),
                "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"double\","
                        + " \"tool_params\": {\"n\": \"${n}\"}, \"output_vars\": \"final_answer\"}}]");
        Files.writeString(plans.resolve("twice.expected.json"), "{\"final_answer\": 42, \"status\": \"succeeded\"}");
        TestMojo test = new TestMojo();
        test.plansDirectory = plans.toFile();
        test.basedir = dir.toFile();
        test.vars = List.of("n=21");

        assertThatThrownBy(test::execute) // no configuration: no tool "double"
                .isInstanceOf(MojoFailureException.class)
                .hasMessageContaining("double");
        test.config = new java.io.File("setup/planvm.json");
        test.execute();
        test.vars = List.of("21=n");
        assertThatThrownBy(test::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageStartingWith("planvm:test: vars: 21=n: expected NAME=VALUE");
        test.vars = List.of("n=21");
        Files.writeString(dir.resolve("setup/planvm.json"), "{\"planTool\": [\"tools\"]}");
        assertThatThrownBy(test::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessageContaining("planTool");
    }

    @Test
    void test_fails_a_plan_still_sleeping_when_its_time_is_up_and_never_hangs_the_build() throws Exception {
        Files.writeString(
                dir.resolve("sleeps.json"),
                "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"sleep\","
                        + " \"tool_params\": {\"seconds\": 2592000}, \"output_vars\": \"final_answer\"}}]");
        Files.writeString(dir.resolve("sleeps.expected.json"), "{\"final_answer\": null, \"status\": \"failed\"}");
        TestMojo test = new TestMojo();
        test.plansDirectory = dir.toFile();
        test.basedir = dir.toFile();
        test.planTimeout = 1;

        assertThatThrownBy(() -> org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                        java.time.Duration.ofSeconds(60), test::execute)) // not hung: the limit is 1 s
                .isInstanceOf(MojoFailureException.class)
                .hasMessageContaining("sleeps.json: the plan did not finish within 1 s, the time limit of a plan test")
                .hasMessageContaining("it was at seq_no 0, calling sleep");
        test.planTimeout = 0;
        assertThatThrownBy(test::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("planvm:test: planTimeout must be at least 1 (seconds), not 0");
    }

    @Test
    void a_missing_directory_is_an_error_that_names_it() {
        ValidateMojo validate = new ValidateMojo();
        validate.plansDirectory = dir.resolve("nowhere").toFile();

        assertThatThrownBy(validate::execute)
                .isInstanceOf(MojoExecutionException.class)
                .hasMessage("planvm:validate: plansDirectory " + dir.resolve("nowhere") + " does not exist");
    }

    @Test
    void the_project_s_own_plans_are_valid_and_meet_their_expectations() throws java.io.IOException {
        PlanChecks checks = new PlanChecks(Path.of("../plans"), log::add);

        assertThat(checks.validate().failures()).isEmpty();
        PlanChecks.Result tested = checks.test();
        assertThat(tested.failures()).isEmpty();
        long expectations;
        try (var files = java.nio.file.Files.list(Path.of("../plans"))) {
            expectations =
                    files.filter(f -> f.toString().endsWith(".expected.json")).count();
        }
        assertThat(tested.summary()).startsWith(expectations + " passed, 0 failed");
        assertThat(log.toString())
                .as("an Idyll document among them, replayed like the plans")
                .contains("idyll-example.idyll");
    }
}
