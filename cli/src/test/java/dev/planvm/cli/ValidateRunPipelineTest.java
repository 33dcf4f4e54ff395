package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * One check pipeline (issue 36 item 10): everything {@code planvm validate} refuses, {@code planvm run} refuses
 * too, before anything runs — exit 2, located by the same {@code seq_no}, nothing stored — and {@code batch}
 * reports it as a plan that never ran. The refusals are enumerated: every golden plan of the loader's
 * diagnostics that {@code validate} refuses, and one plan per refusal of a VM's checks (params written out
 * against a plan tool's inputs or a built-in's schema, a denied tool, a plan tool that cannot be used).
 */
class ValidateRunPipelineTest {

    private static final Path GOLDEN = Path.of("../instructions/src/test/resources/golden");

    @TempDir
    static Path dir;

    private record Refused(String name, String plan, List<String> flags) {}

    private static Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    /** A plan per refusal of the VM's checks ({@code PlanVm.refusals}), with the flags that make it one. */
    private static List<Refused> vmRefusals() throws IOException {
        write("tools/worker.json", """
                {"name": "worker", "inputs": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
                 "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${n * 2}"}}]}""");
        write("tools/self.json", """
                {"name": "self", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "self", "tool_params": {}, "output_vars": "final_answer"}}]}""");
        write("tools/broken.json", """
                {"name": "broken", "plan": [{"seq_no": 0, "type": "jmp", "parameters": {"target_seq": 7}}]}""");
        write("tools/looping.json", """
                {"name": "looping", "inputs": {"type": "object", "properties": {"x": {"$ref": "#/properties/x"}}},
                 "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": 1}}]}""");
        String tools = dir.resolve("tools").toString();
        List<Refused> all = new ArrayList<>();
        all.add(new Refused(
                "plan tool params of the wrong type",
                call("worker", "{\"n\": \"x\"}"),
                List.of("--plan-tools", tools)));
        all.add(new Refused(
                "plan tool params without a required input",
                call("worker", "{\"m\": \"${x}\"}"),
                List.of("--plan-tools", tools)));
        all.add(new Refused(
                "sleep with seconds and until",
                call("sleep", "{\"seconds\": 1, \"until\": \"2030-01-01T00:00:00Z\"}"),
                List.of()));
        all.add(new Refused(
                "human_input with an unknown param",
                call("human_input", "{\"prompt\": \"x\", \"hint\": 1}"),
                List.of()));
        all.add(new Refused("a denied tool", call("web_search", "{\"q\": \"x\"}"), List.of("--deny-tools", "web_*")));
        all.add(new Refused("a plan tool that calls itself", call("self", "{}"), List.of("--plan-tools", tools)));
        all.add(new Refused(
                "a plan tool whose file does not load", call("broken", "{}"), List.of("--plan-tools", tools)));
        all.add(new Refused(
                "a plan tool whose inputs have a $ref cycle",
                call("looping", "{\"x\": 1}"),
                List.of("--plan-tools", tools)));
        return all;
    }

    private static String call(String tool, String params) {
        return """
                [{"seq_no": 0, "type": "assign", "parameters": {"x": 1}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "%s", "tool_params": %s, "output_vars": "final_answer"}}]""".formatted(tool, params);
    }

    /** Every golden plan of the loader that {@code validate} refuses (its expectation has no {@code ok} line). */
    private static List<Refused> loaderRefusals() throws IOException {
        List<Refused> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(GOLDEN)) {
            for (Path plan :
                    files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                String expected = Files.readString(
                        GOLDEN.resolve(plan.getFileName().toString().replace(".json", ".expected")));
                if (!expected.contains(": ok\n")) {
                    all.add(new Refused("golden " + plan.getFileName(), Files.readString(plan), List.of()));
                }
            }
        }
        return all;
    }

    @TestFactory
    Stream<DynamicTest> run_refuses_before_anything_runs_every_plan_validate_refuses() throws IOException {
        List<Refused> cases = new ArrayList<>(loaderRefusals());
        assertThat(cases).as("the golden plans validate refuses").hasSizeGreaterThan(30);
        cases.addAll(vmRefusals());
        return cases.stream().map(refused -> DynamicTest.dynamicTest(refused.name(), () -> check(refused)));
    }

    private static void check(Refused refused) throws IOException {
        String slug = refused.name().replaceAll("[^A-Za-z0-9]+", "_");
        Path plan = write(slug + "/plan.json", refused.plan());
        Path store = dir.resolve(slug + "/runs.db");

        CliRun validate = CliRun.of(args("validate", plan, refused.flags()));
        assertThat(validate.exitCode())
                .as("validate: " + validate.out() + validate.err())
                .isEqualTo(2);
        List<String> located = validate.out()
                .lines()
                .map(line -> line.replaceFirst(" at /[^:]*:", ":")) // run names the seq_no; validate the pointer too
                .map(line -> line.replaceAll(":.*", ""))
                .distinct()
                .toList();

        List<String> runArgs = new ArrayList<>(List.of("run", plan.toString(), "--store", store.toString()));
        runArgs.addAll(refused.flags());
        CliRun run = CliRun.of(runArgs.toArray(String[]::new));
        assertThat(run.exitCode()).as("run: " + run.err()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).doesNotContain("\tat ");
        assertThat(located).allSatisfy(where -> assertThat(run.err()).contains(where));
        assertThat(store)
                .as("a refused run stores nothing")
                .satisfiesAnyOf(
                        file -> assertThat(file).doesNotExist(),
                        file -> assertThat(CliRun.of("runs", "--store", file.toString())
                                        .out())
                                .startsWith("no runs"));

        List<String> batchArgs = new ArrayList<>(List.of("batch", plan.toString()));
        batchArgs.addAll(refused.flags());
        CliRun batch = CliRun.of(batchArgs.toArray(String[]::new));
        assertThat(batch.out())
                .as("batch: " + batch.err())
                .containsAnyOf("\"status\":\"invalid\"", "\"status\":\"rejected\"");
    }

    private static String[] args(String command, Path plan, List<String> flags) {
        List<String> all = new ArrayList<>(List.of(command, plan.toString()));
        all.addAll(flags);
        return all.toArray(String[]::new);
    }
}
