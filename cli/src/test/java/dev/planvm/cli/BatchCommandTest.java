package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BatchCommandTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static final String HELLO =
            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"Hello ${name}\"}}]";
    private static final String NUMBER = "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"n\": 41}},"
            + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"final_answer\": {\"n\": \"${n + 1}\"}}}]";
    private static final String INVALID = "[{\"seq_no\": 0, \"type\": \"asign\", \"parameters\": {}}]";
    private static final String FAILS =
            "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${missing}\"}}]";
    private static final String SEARCH = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "tidb", "top_k": 1}, "output_vars": ["docs"]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${docs[0].content}"}}]""";
    private static final String SEARCH_CASSETTE = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "vector_search", "params": {"query": "tidb", "top_k": 1}, "output": [{"content": "TiDB is a database"}], "duration_ms": 5}]}""";

    @TempDir
    Path dir;

    private String write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return file.toString();
    }

    private static List<JsonNode> lines(String jsonLines) throws Exception {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : jsonLines.split("\n")) {
            lines.add(MAPPER.readTree(line));
        }
        return lines;
    }

    private static List<String> statuses(List<JsonNode> lines) {
        return lines.stream().map(line -> line.get("status").asText()).toList();
    }

    @Test
    void prints_one_json_line_per_plan_with_every_field_in_the_order_of_the_files() throws Exception {
        String b = write("b.json", NUMBER);
        String a = write("a.json", HELLO);
        CliRun run = CliRun.of("batch", b, a, "--var", "name=Ann");
        assertThat(run.exitCode()).isZero();
        List<JsonNode> lines = lines(run.out());
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("file").asText()).isEqualTo(b);
        assertThat(lines.get(0).get("final_answer")).isEqualTo(MAPPER.readTree("{\"n\": 42}"));
        assertThat(lines.get(1).get("file").asText()).isEqualTo(a);
        assertThat(lines.get(1).get("final_answer").asText()).isEqualTo("Hello Ann");
        for (JsonNode line : lines) {
            assertThat(line.fieldNames())
                    .toIterable()
                    .containsExactly("file", "status", "final_answer", "error", "duration_ms", "steps");
            assertThat(line.get("status").asText()).isEqualTo("succeeded");
            assertThat(line.get("error").isNull()).isTrue();
            assertThat(line.get("duration_ms").isIntegralNumber()).isTrue();
        }
        assertThat(lines.get(0).get("steps").asInt()).isEqualTo(2);
        assertThat(lines.get(1).get("steps").asInt()).isEqualTo(1);
    }

    @Test
    void a_directory_stands_for_its_plans_but_not_their_cassettes_or_expectations() throws Exception {
        write("plans/a.json", HELLO);
        write("plans/a.cassette.json", SEARCH_CASSETTE);
        write("plans/a.expected.json", "{\"status\": \"succeeded\"}");
        write("plans/b.json", NUMBER);
        CliRun run = CliRun.of("batch", dir.resolve("plans").toString(), "--var", "name=Bo");
        assertThat(run.exitCode()).isZero();
        assertThat(lines(run.out()))
                .extracting(
                        line -> Path.of(line.get("file").asText()).getFileName().toString())
                .containsExactly("a.json", "b.json");
    }

    @Test
    void an_invalid_or_failing_plan_gets_its_status_and_error_and_the_batch_exits_1() throws Exception {
        CliRun run =
                CliRun.of("batch", write("ok.json", NUMBER), write("bad.json", INVALID), write("fails.json", FAILS));
        assertThat(run.exitCode()).isEqualTo(1);
        List<JsonNode> lines = lines(run.out());
        assertThat(statuses(lines)).containsExactly("succeeded", "invalid", "failed");
        assertThat(lines.get(1).get("error").asText())
                .contains("seq_no 0")
                .contains("unknown instruction type 'asign'");
        assertThat(lines.get(1).get("final_answer").isNull()).isTrue();
        assertThat(lines.get(2).get("error").asText())
                .contains("seq_no 0 (assign)")
                .contains("missing");
    }

    @Test
    void the_summary_on_stderr_names_counts_throughput_and_the_slowest_plans() throws Exception {
        CliRun run =
                CliRun.of("batch", write("ok.json", NUMBER), write("bad.json", INVALID), write("fails.json", FAILS));
        assertThat(run.err())
                .containsPattern("batch: 3 plans in \\d+ ms \\([0-9.]+ plans/s\\): 1 succeeded, 1 failed, 1 invalid")
                .containsPattern("slowest: .*ok.json \\d+ ms")
                .contains("bad.json")
                .contains("fails.json");
        assertThat(run.out()).doesNotContain("batch:");
    }

    @Test
    void out_writes_every_line_to_the_file_and_nothing_to_stdout() throws Exception {
        Path out = dir.resolve("results/out.jsonl");
        CliRun run = CliRun.of("batch", write("ok.json", NUMBER), write("bad.json", INVALID), "--out", out.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        String written = Files.readString(out);
        assertThat(written).endsWith("\n");
        assertThat(statuses(lines(written))).containsExactly("succeeded", "invalid");
        try (Stream<Path> files = Files.list(out.getParent())) {
            assertThat(files).as("no temporary file left").containsExactly(out);
        }
    }

    @Test
    void replay_dir_pairs_each_plan_with_its_cassette_and_rejects_a_calling_plan_without_one() throws Exception {
        String cassettes = dir.resolve("cassettes").toString();
        write("cassettes/searched.cassette.json", SEARCH_CASSETTE);
        CliRun run = CliRun.of(
                "batch",
                write("searched.json", SEARCH),
                write("unrecorded.json", SEARCH),
                write("quiet.json", NUMBER),
                "--replay-dir",
                cassettes);
        assertThat(run.exitCode()).isEqualTo(1);
        List<JsonNode> lines = lines(run.out());
        assertThat(statuses(lines)).containsExactly("succeeded", "rejected", "succeeded");
        assertThat(lines.get(0).get("final_answer").asText()).isEqualTo("TiDB is a database");
        assertThat(lines.get(1).get("error").asText())
                .contains("no cassette")
                .contains("unrecorded.cassette.json")
                .contains("seq_no 0 calls tool 'vector_search'");
    }

    @Test
    void a_broken_cassette_rejects_only_its_plan() throws Exception {
        write("c/a.cassette.json", "{\"format\": 1}");
        CliRun run = CliRun.of(
                "batch",
                write("a.json", SEARCH),
                write("b.json", NUMBER),
                "--replay-dir",
                dir.resolve("c").toString());
        assertThat(run.exitCode()).isEqualTo(1);
        List<JsonNode> lines = lines(run.out());
        assertThat(statuses(lines)).containsExactly("rejected", "succeeded");
        assertThat(lines.get(0).get("error").asText()).contains("not a cassette");
    }

    @Test
    void the_repository_example_plans_all_replay_from_their_cassettes() throws Exception {
        CliRun run = CliRun.of("batch", "../plans", "--replay-dir", "../plans");
        long plans;
        try (var files = Files.list(Path.of("../plans"))) {
            plans = files.filter(f -> f.toString().endsWith(".expected.json")).count(); // one per example plan
        }
        assertThat(plans).isGreaterThanOrEqualTo(6);
        assertThat(run.err()).contains("batch: " + plans + " plans").contains(plans + " succeeded");
        assertThat(run.exitCode()).isZero();
        assertThat(statuses(lines(run.out()))).hasSize((int) plans).containsOnly("succeeded");
    }

    @Test
    void dry_run_answers_placeholders_for_tools_that_are_not_installed() throws Exception {
        CliRun run = CliRun.of("batch", write("a.json", SEARCH.replace("${docs[0].content}", "${docs}")), "--dry-run");
        assertThat(run.exitCode()).isZero();
        assertThat(lines(run.out()).get(0).get("final_answer").asText()).isEqualTo("<dry-run seq_no 0 vector_search>");
    }

    @Test
    void without_replay_or_dry_run_a_plan_calling_a_missing_tool_is_rejected() throws Exception {
        CliRun run = CliRun.of("batch", write("a.json", SEARCH));
        assertThat(run.exitCode()).isEqualTo(1);
        JsonNode line = lines(run.out()).get(0);
        assertThat(line.get("status").asText()).isEqualTo("rejected");
        assertThat(line.get("error").asText()).contains("tool 'vector_search' is not installed");
    }

    @Test
    void max_steps_and_strict_apply_to_every_plan() throws Exception {
        String loop = write("loop.json", "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 0}}]");
        String silent = write("silent.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"x\": 1}}]");
        CliRun run = CliRun.of("batch", loop, silent, "--max-steps", "5", "--strict");
        assertThat(run.exitCode()).isEqualTo(1);
        List<JsonNode> lines = lines(run.out());
        assertThat(statuses(lines)).containsExactly("failed", "failed");
        assertThat(lines.get(0).get("error").asText()).contains("5");
        assertThat(lines.get(1).get("error").asText()).contains("final_answer");
    }

    @Test
    void replay_dir_and_dry_run_exclude_each_other() throws Exception {
        CliRun run = CliRun.of("batch", write("a.json", NUMBER), "--replay-dir", dir.toString(), "--dry-run");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mutually exclusive");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void bad_usage_exits_2() throws Exception {
        String plan = write("a.json", NUMBER);
        assertThat(CliRun.of("batch").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("batch", plan, "--concurrency", "0").err()).contains("--concurrency must be at least 1");
        assertThat(CliRun.of("batch", plan, "--concurrency", "0").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("batch", plan, "--replay-timing").exitCode()).isEqualTo(2);
        assertThat(CliRun.of("batch", plan, "--replay-dir", dir.resolve("none").toString())
                        .exitCode())
                .isEqualTo(2);
        assertThat(CliRun.of("batch", plan, "--var", "1x=2").exitCode()).isEqualTo(2);
    }

    @Test
    void a_directory_with_no_plan_file_exits_2() throws Exception {
        Files.createDirectory(dir.resolve("empty"));
        CliRun run = CliRun.of("batch", dir.resolve("empty").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("no plan file");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void concurrency_one_still_runs_every_plan_in_order() throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            files.add(write(
                    "p" + i + ".json",
                    "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": " + i + "}}]"));
        }
        List<String> args = new ArrayList<>(List.of("batch", "--concurrency", "1"));
        args.addAll(files);
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.exitCode()).isZero();
        assertThat(lines(run.out()))
                .extracting(line -> line.get("final_answer").asInt())
                .containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void batch_takes_the_concurrency_options_of_run() throws Exception {
        Path plan = Files.writeString(
                dir.resolve("p.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun ok = CliRun.of(
                "batch",
                plan.toString(),
                "--sequential",
                "--max-in-flight",
                "2",
                "--tool-concurrency",
                "llm_generate=2");
        assertThat(ok.exitCode()).isZero();
        CliRun bad = CliRun.of("batch", plan.toString(), "--tool-concurrency", "llm_generate=0");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("--tool-concurrency llm_generate=0: the limit must be at least 1");
    }
}
