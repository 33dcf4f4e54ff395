package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.instructions.reach.Reach;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code validate --reach} and the reach policy on the command line: the report, and refusals naming the path. */
class ReachCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The real StackVM plan of the examples with one more step: a destructive HTTP call (a DELETE). */
    private Path corpusLikePlan() throws Exception {
        ArrayNode plan = (ArrayNode) JSON.readTree(
                Path.of("../plans/stackvm-tidb-best-practices.json").toFile());
        ObjectNode drop = plan.addObject().put("seq_no", 11).put("type", "calling");
        drop.putObject("parameters")
                .put("tool_name", "http:drop_cache")
                .put("output_vars", "dropped")
                .putObject("tool_params")
                .put("key", "${latest_tidb_version}");
        Path file = dir.resolve("tidb-then-drop.json");
        Files.writeString(file, plan.toPrettyString());
        Files.writeString(dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "http:drop_cache", "method": "DELETE",
                                "url": "https://cache.example.com/keys/${key}"}]}""");
        return file;
    }

    private String config() {
        return dir.resolve("planvm.json").toString();
    }

    @Test
    void a_plan_reaching_a_destructive_tool_without_approval_is_refused_naming_the_path_and_accepted_once_approved()
            throws Exception {
        Path plan = corpusLikePlan();
        CliRun refused =
                CliRun.of("validate", "--config", config(), "--require-approval-for", "side_effects", plan.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.out().lines())
                .containsExactly(plan + ": seq_no 11: http:drop_cache is destructive and no approval rule gates it:"
                        + " the path 0 → 1 → 2 → 3 → 6 → 7 → 8 → 9 → 10 → 11 reaches it without approval (requireApprovalFor:"
                        + " side_effects; name it in approveTools or --approve-tools)");

        CliRun approved = CliRun.of(
                "validate",
                "--config",
                config(),
                "--require-approval-for",
                "side_effects",
                "--approve-tools",
                "http:*",
                plan.toString());
        assertThat(approved.exitCode()).isZero();
        assertThat(approved.out()).isEqualTo(plan + ": ok (12 instructions)\n");

        CliRun run = CliRun.of(
                "run", "--config", config(), "--require-approval-for", "destructive", "--dry-run", plan.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("seq_no 11: http:drop_cache is destructive and no approval rule gates it");
    }

    @Test
    void the_policy_section_of_the_configuration_applies_to_validate_and_run_and_its_mistakes_are_located()
            throws Exception {
        Path plan = corpusLikePlan();
        Files.writeString(dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "http:drop_cache", "method": "DELETE",
                                "url": "https://cache.example.com/keys/${key}"}],
                 "policy": {"maxCalls": {"vector_search": 2}, "denyFlows": [{"from": "llm", "to": "http:*"}]}}""");
        CliRun refused = CliRun.of("validate", "--config", config(), plan.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.out())
                .contains(plan + ": seq_no 4: vector_search can be called 3 times on one path through seq_no 4, 7, 8"
                        + " (maxCalls: vector_search ≤ 2)")
                .contains(plan + ": seq_no 11: the output of llm_generate at seq_no 2 reaches http:drop_cache.key: the"
                        + " output of llm_generate at seq_no 2 → latest_tidb_version (seq_no 2) →"
                        + " http:drop_cache.key (denyFlows: llm → http:*)");

        Files.writeString(dir.resolve("planvm.json"), """
                {"policy": {"denyFlows": [{"from": "password", "to": "http:*"}], "maxCals": {}}}""");
        CliRun bad = CliRun.of("validate", "--config", config(), plan.toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("at /policy/maxCals: unknown key 'maxCals' (did you mean 'maxCalls'?)");
    }

    @Test
    void the_reach_report_is_a_table_and_in_json_fits_its_schema() throws Exception {
        Path plan = corpusLikePlan();
        CliRun table = CliRun.of("validate", "--config", config(), "--reach", plan.toString());
        assertThat(table.exitCode()).isZero();
        assertThat(table.out())
                .contains("tidb-then-drop.json: 5 tools reachable")
                .containsPattern("\\nhttp:drop_cache +tool +destructive +no +1 +11\\n")
                .contains("Hosts:\n  cache.example.com\n")
                .contains("seq_no 3: decided by an LLM, both ways taken");

        CliRun json = CliRun.of("validate", "--config", config(), "--reach", "--format", "json", plan.toString());
        JsonNode reach = JSON.readTree(json.out()).at("/files/0/reach");
        var schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(Reach.schema());
        assertThat(schema.validate(reach)).isEmpty();
        assertThat(reach.at("/tools/1/tool").asText()).isEqualTo("http:drop_cache");
        assertThat(reach.at("/tools/1/unapproved_path/9/seq_no").asInt()).isEqualTo(11);
    }

    @Test
    void the_report_of_a_run_shows_what_its_plan_could_do_beside_what_it_did() throws Exception {
        Path trace = dir.resolve("trace.json");
        Path page = dir.resolve("report.html");
        CliRun run = CliRun.of(
                "run",
                "../plans/stackvm-tidb-best-practices.json",
                "--replay",
                "../plans/stackvm-tidb-best-practices.cassette.json",
                "--no-store",
                "--trace",
                trace.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        CliRun report = CliRun.of("report", trace.toString(), "-o", page.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        String html = Files.readString(page);
        assertThat(html)
                .contains("\"reach\":{\"complete\":true,\"tools\":[{\"tool\":\"condition_prompt\"")
                .contains("{\"tool\":\"vector_search\",\"kind\":\"tool\",\"effect\":\"none\",\"approval\":\"no\","
                        + "\"most\":\"3\",\"sites\":\"4, 6, 7, 8\",\"ran\":3}");
    }

    @Test
    void every_plan_of_the_examples_and_of_the_stackvm_corpus_gets_a_report_without_a_crash() {
        CliRun run = CliRun.of(
                "validate", "--reach", "--plan-tools", "../plans/plan-tools", "../plans", "../plans/compat/stackvm");
        assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
        long reports =
                run.out().lines().filter(line -> line.contains(" reachable")).count();
        long valid = run.out()
                .lines()
                .filter(line -> line.matches(".*: ok \\(\\d+ instructions?.*"))
                .count();
        assertThat(valid).isGreaterThan(900);
        assertThat(reports).isEqualTo(valid);
    }
}
