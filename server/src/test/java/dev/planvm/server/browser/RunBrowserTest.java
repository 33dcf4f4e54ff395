package dev.planvm.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.report.HtmlReport;
import dev.planvm.server.report.Reports;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run browser in a real browser: headless Chromium (Debian's package) driven by puppeteer-core
 * ({@code src/test/browser/run-browser.mjs}, installed by {@code npm ci} there, which the build runs) through a
 * real server on 127.0.0.1. It lists a finished run, follows a replay of {@code plans/stackvm-tidb-best-practices.json}
 * with its recorded latencies while it runs, approves a waiting run through its form, and measures the report of
 * that plan; screenshots at 1400 and 800 px go to {@code target/browser-artifacts/}. Skipped when
 * {@code /usr/bin/chromium} is absent, or puppeteer-core could not be installed (the message names the command).
 */
class RunBrowserTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path SCRIPTS = Path.of("src/test/browser");
    private static final Path ARTIFACTS = Path.of("target/browser-artifacts");
    private static final Path PLAN = Path.of("../plans/stackvm-tidb-best-practices.json");
    private static final Path CASSETTE = Path.of("../plans/stackvm-tidb-best-practices.cassette.json");

    /** A Markdown answer with markup and script where a careless renderer would take them for HTML. */
    static final String HOSTILE_MARKDOWN = """
            # Findings
            - first <img src=x onerror="document.title='pwned'"> item
            - see [the docs](https://example.com/docs) and [this](javascript:document.title='pwned')
            <script>document.title='pwned'</script>
            """;

    @TempDir
    static Path dir;

    private static final String TOKEN = "browser-token-0123456789";

    private static ServerFixture server;
    private static ServerFixture guarded;
    private static ServerFixture withPlanTools;
    private static String childrenParent;
    private static String guardedRun;
    private static JsonNode results;
    private static String finished;
    private static String waiting;
    private static String asking;
    private static String mapWaiting;
    private static ServerFixture mapServer;
    private static String output;

    @BeforeAll
    static void drive() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "no " + CHROMIUM + " here: apt-get install chromium");
        assumeTrue(
                Files.isDirectory(SCRIPTS.resolve("node_modules/puppeteer-core")),
                "puppeteer-core is not installed (the build installs it where npm works):"
                        + " npm ci --prefix server/src/test/browser --no-audit --no-fund");
        server = ServerFixture.start(dir);
        ObjectNode hello = ServerFixture.JSON.createObjectNode().put("name", "hello-browser.json");
        hello.set(
                "plan",
                ServerFixture.JSON.readTree(
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"echo\","
                                + " \"tool_params\": {\"text\": \"${text}\"}, \"output_vars\": \"e\"}},"
                                + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${e.text}\"}}]"));
        hello.putObject("inputs").put("text", HOSTILE_MARKDOWN);
        finished = server.post("/v1/runs?wait=true", hello.toString())
                .json()
                .path("id")
                .asText();
        JsonNode wait = server.post(
                        "/v1/runs?wait=true",
                        ServerFixture.runBody(
                                "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"send_mail\","
                                        + " \"tool_params\": {\"to\": \"ann@example.com\"}, \"output_vars\": \"sent\"}},"
                                        + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${sent}\"}}]",
                                "\"name\": \"mail-browser.json\", \"approve_tools\": [\"send_*\"]"))
                .json();
        assertThat(wait.path("state").asText()).as(wait.toString()).isEqualTo("waiting");
        waiting = wait.path("id").asText();
        JsonNode ask = server.post(
                        "/v1/runs?wait=true",
                        ServerFixture.runBody(
                                "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"human_input\","
                                        + " \"tool_params\": {\"prompt\": \"How many copies?\", \"schema\": {\"type\": \"integer\", \"minimum\": 1}},"
                                        + " \"output_vars\": \"n\"}},"
                                        + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${n * 2}\"}}]",
                                "\"name\": \"ask-browser.json\""))
                .json();
        assertThat(ask.path("state").asText()).as(ask.toString()).isEqualTo("waiting");
        asking = ask.path("id").asText();

        guarded = new ServerFixture(
                dir.resolve("guarded.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.builder().token(TOKEN).build());
        guardedRun = guarded.post("/v1/runs?wait=true", hello.toString())
                .json()
                .path("id")
                .asText();

        withPlanTools = new ServerFixture(
                dir.resolve("plan-tools.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.DEFAULT,
                builder -> builder.planTools(Path.of("../plans/plan-tools")));
        ObjectNode parentRun = ServerFixture.JSON.createObjectNode().put("name", "plan-tools-parent.json");
        parentRun.set(
                "plan",
                ServerFixture.JSON.readTree(
                        Path.of("../plans/plan-tools-parent.json").toFile()));
        JsonNode parentDone =
                withPlanTools.post("/v1/runs?wait=true", parentRun.toString()).json();
        assertThat(parentDone.path("state").asText()).as(parentDone.toString()).isEqualTo("succeeded");
        childrenParent = parentDone.path("id").asText();
        mapServer = new ServerFixture(dir.resolve("map.db"), ServiceSettings.DEFAULT, ServerSettings.DEFAULT);
        JsonNode map = mapServer
                .post(
                        "/v1/runs?wait=true",
                        ServerFixture.runBody(
                                "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"send_mail\","
                                        + " \"for_each\": [\"alice@x\", \"bob@x\", \"mallory@x\"], \"as\": \"who\","
                                        + " \"tool_params\": {\"to\": \"${who}\"}, \"output_vars\": \"final_answer\"}}]",
                                "\"name\": \"map-browser.json\", \"approve_tools\": [\"send_*\"]"))
                .json();
        assertThat(map.path("state").asText()).as(map.toString()).isEqualTo("waiting");
        mapWaiting = map.path("id").asText();

        ObjectNode live = ServerFixture.JSON.createObjectNode();
        live.set("plan", ServerFixture.JSON.readTree(PLAN.toFile()));
        live.put("name", "stackvm-tidb-best-practices.json").put("mode", "replay");
        live.set("cassette", ServerFixture.JSON.readTree(CASSETTE.toFile()));
        live.put("replay_timing", true);

        Files.createDirectories(ARTIFACTS);
        Path report =
                ARTIFACTS.resolve("report-stackvm-tidb-best-practices.html").toAbsolutePath();
        Files.writeString(report, tidbReport());

        ObjectNode config = ServerFixture.JSON
                .createObjectNode()
                .put("base", server.server.url())
                .put("chromium", CHROMIUM.toString())
                .put("artifacts", ARTIFACTS.toAbsolutePath().toString())
                .put("results", dir.resolve("results.json").toString())
                .put("finished_id", finished)
                .put("waiting_id", waiting)
                .put("input_id", asking)
                .put("live_body", live.toString())
                .put("report_file", report.toString())
                .put("token_base", guarded.server.url())
                .put("token", TOKEN)
                .put("token_run_id", guardedRun)
                .put("children_base", withPlanTools.server.url())
                .put("children_parent_id", childrenParent)
                .put("map_base", mapServer.server.url())
                .put("map_id", mapWaiting);
        Path configFile = dir.resolve("config.json");
        Files.writeString(configFile, config.toString());
        Path log = dir.resolve("node.log");
        Process node = new ProcessBuilder(
                        "node", "run-browser.mjs", configFile.toAbsolutePath().toString())
                .directory(SCRIPTS.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!node.waitFor(240, TimeUnit.SECONDS)) {
            node.destroyForcibly();
            throw new AssertionError("the browser script did not finish in 240 s: " + Files.readString(log));
        }
        output = Files.readString(log);
        assertThat(dir.resolve("results.json"))
                .as("the script's results; its output: " + output)
                .exists();
        results = ServerFixture.JSON.readTree(dir.resolve("results.json").toFile());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (guarded != null) {
            guarded.close();
        }
        if (withPlanTools != null) {
            withPlanTools.close();
        }
        if (mapServer != null) {
            mapServer.close();
        }
    }

    /** The tidb plan replayed in process (with its calls in the trace), as {@code planvm report} draws it. */
    private static String tidbReport() throws IOException {
        Plan plan = server.vm
                .loader()
                .load(Files.readString(PLAN), PLAN.getFileName().toString())
                .planOrThrow();
        RunResult run = server.vm.run(plan, Map.of(), RunMode.replay(Cassette.read(CASSETTE), false));
        return HtmlReport.render(Reports.of(run.trace(), plan.document(), "planvm run of " + PLAN.getFileName()));
    }

    @Test
    void the_run_page_nests_each_plan_tool_child_run_and_expanding_one_shows_its_steps() {
        JsonNode blocks = results.path("children_blocks");
        assertThat(blocks).as(results.toString()).hasSize(3);
        blocks.forEach(
                b -> assertThat(b.path("in_step").asBoolean()).as(b.toString()).isTrue());
        JsonNode expanded = results.path("children_expanded");
        assertThat(expanded.path("steps").asInt()).as(expanded.toString()).isEqualTo(2);
        assertThat(expanded.path("link").asText())
                .isEqualTo("#/runs/" + expanded.path("id").asText());
        assertThat(results.path("child_page_parent").asText()).isEqualTo(childrenParent);
        assertThat(ARTIFACTS.resolve("run-page-children.png")).exists();
    }

    @Test
    void expanding_a_child_run_on_the_run_page_shows_its_own_flow_graph_and_timeline() {
        JsonNode expanded = results.path("children_expanded");
        // the child plan: two steps (a call, final_answer), so two nodes; its step and call bars
        assertThat(expanded.path("graph_nodes").asInt()).as(expanded.toString()).isEqualTo(2);
        assertThat(expanded.path("timeline_bars").asInt())
                .as(expanded.toString())
                .isGreaterThanOrEqualTo(2);
        JsonNode parent = results.path("children_parent_nodes");
        assertThat(parent.path("drawn").asInt())
                .as("the page's graph keeps only the parent's nodes")
                .isEqualTo(parent.path("attr").asInt());
    }

    @Test
    void the_run_list_names_each_childs_parent_and_can_hide_children() {
        JsonNode rows = results.path("children_list");
        assertThat(rows).as(results.toString()).hasSize(4);
        int children = 0;
        for (JsonNode row : rows) {
            if (!row.path("parent").isNull()) {
                assertThat(row.path("parent").asText()).isEqualTo(childrenParent);
                children++;
            }
        }
        assertThat(children).isEqualTo(3);
        assertThat(results.path("children_hidden_list"))
                .extracting(JsonNode::asText)
                .containsExactly(childrenParent);
    }

    @Test
    void the_standalone_report_embeds_the_child_runs_and_expands_one_to_its_steps() {
        JsonNode children = results.path("report_children");
        assertThat(children).as(results.toString()).hasSize(3);
        assertThat(children.get(0).path("open").asBoolean()).isTrue();
        assertThat(children.get(0).path("steps").asInt()).isEqualTo(2);
        assertThat(ARTIFACTS.resolve("report-children.png")).exists();
    }

    @Test
    void expanding_a_child_run_in_the_standalone_report_shows_its_graph_and_timeline_wired_to_its_steps() {
        JsonNode child = results.path("report_children").get(0);
        assertThat(child.path("graph_nodes").asInt()).as(child.toString()).isEqualTo(2);
        assertThat(child.path("timeline_bars").asInt()).as(child.toString()).isGreaterThanOrEqualTo(2);
        JsonNode opened = results.path("report_child_node_opens");
        assertThat(opened.path("open").asBoolean()).as(results.toString()).isTrue();
        assertThat(opened.path("id").asText()).startsWith("child-").endsWith("-step-1");
        assertThat(ARTIFACTS.resolve("report-child-graph.png")).exists();
    }

    @Test
    void every_step_of_the_script_was_done_without_script_errors_or_requests_elsewhere() {
        List<String> failed = new ArrayList<>();
        results.properties().forEach(field -> {
            if (field.getKey().endsWith("_error")) {
                failed.add(field.getKey() + ": " + field.getValue().asText());
            }
        });
        assertThat(failed).as(output).isEmpty();
        assertThat(results.path("console_errors"))
                .as("errors in the pages' consoles")
                .isEmpty();
        assertThat(results.path("requests_elsewhere"))
                .as("requests beyond the server")
                .isEmpty();
    }

    @Test
    void the_list_shows_a_finished_run_and_filters_by_state_and_search() {
        JsonNode row = null;
        for (JsonNode r : results.path("list_rows")) {
            if (r.path("id").asText().equals(finished)) {
                row = r;
            }
        }
        assertThat(row)
                .as("the finished run's row in %s", results.path("list_rows"))
                .isNotNull();
        assertThat(row.path("state").asText()).isEqualTo("succeeded");
        assertThat(row.path("cells").toString()).contains("hello-browser.json");
        assertThat(results.path("waiting_rows").toString()).contains(waiting).doesNotContain(finished);
        assertThat(results.path("search_rows").toString()).contains(finished).doesNotContain(waiting);
        assertThat(results.path("list_labels").toString()).contains("State", "Plan or run id");
        assertThat(results.path("list_csp").asText()).contains("default-src 'none'", "script-src 'self'");
    }

    @Test
    void a_run_page_updates_while_a_replay_with_recorded_latencies_proceeds() {
        List<Integer> steps = new ArrayList<>();
        for (JsonNode seen : results.path("live_seen")) {
            int n = seen.path("steps").asInt();
            if (steps.isEmpty() || steps.get(steps.size() - 1) != n) {
                steps.add(n);
            }
        }
        assertThat(steps).as("committed steps as the page saw them").isSorted();
        assertThat(steps.size())
                .as("the page redrew as steps committed: %s", steps)
                .isGreaterThanOrEqualTo(4);
        assertThat(results.path("live_shot_state").path("state").asText()).isEqualTo("running");
        assertThat(results.path("live_final").path("state").asText()).isEqualTo("succeeded");
        assertThat(results.path("live_final").path("ran").asInt()).isGreaterThanOrEqualTo(8);
        assertThat(results.path("live_result_markdown").asInt())
                .as("the Markdown answer rendered")
                .isPositive();
        JsonNode reach = results.path("live_reach");
        assertThat(reach).as("what the plan could do, beside what it did").hasSize(4);
        assertThat(reach.get(1).toString())
                .as("llm_generate: two sites, both ran")
                .isEqualTo("[\"llm_generate\",\"tool\",\"none\",\"no\",\"2\",\"2, 9\",\"2\"]");
        String id = results.path("live_id").asText();
        assertThat(results.path("live_downloads").toString())
                .contains("v1/runs/" + id + "/trace", "v1/runs/" + id + "/cassette");
    }

    @Test
    void an_input_form_refuses_a_wrong_answer_and_continues_the_run_with_a_right_one() throws Exception {
        assertThat(results.path("input_error").asText()).isEmpty();
        assertThat(results.path("input_legend").asText()).isEqualTo("Input needed: seq_no 0 asks");
        assertThat(results.path("input_prompt").asText()).isEqualTo("How many copies?");
        assertThat(results.path("input_refusal").asText())
                .startsWith("The answer was not taken: run " + asking + " keeps waiting: the answer 0 does not fit");
        assertThat(results.path("input_final_state").asText()).isEqualTo("succeeded");
        assertThat(results.path("input_form_gone").asBoolean()).isTrue();
        assertThat(server.get("/v1/runs/" + asking).json().path("result").asInt())
                .isEqualTo(6);
    }

    @Test
    void an_approval_form_continues_a_waiting_run() throws Exception {
        assertThat(results.path("approval_legend").asText()).contains("send_mail");
        assertThat(results.path("approval_params").asText()).contains("ann@example.com");
        assertThat(results.path("approval_final_state").asText()).isEqualTo("succeeded");
        assertThat(results.path("approval_form_gone").asBoolean()).isTrue();
        assertThat(server.mails).hasValue(1);
        JsonNode run = server.get("/v1/runs/" + waiting).json();
        assertThat(run.path("state").asText()).isEqualTo("succeeded");
        assertThat(run.at("/approvals/0/reason").asText()).isEqualTo("checked by the browser test");
    }

    @Test
    void an_approval_form_names_one_element_of_a_map_and_after_its_approval_the_next() throws Exception {
        JsonNode first = results.path("map_first");
        assertThat(first.path("legend").asText())
                .isEqualTo("Approval needed: seq_no 0 (for_each element 0) calls send_mail");
        assertThat(first.path("params").asText()).contains("alice@x").doesNotContain("bob@x");
        assertThat(first.path("others").asText()).startsWith("2 more calls wait after this one");
        JsonNode second = results.path("map_second");
        assertThat(second.path("legend").asText())
                .isEqualTo("Approval needed: seq_no 0 (for_each element 1) calls send_mail");
        assertThat(second.path("params").asText()).contains("bob@x");
        assertThat(second.path("others").asText()).startsWith("1 more call waits after this one");
        assertThat(results.path("map_state").asText()).isEqualTo("waiting");
        assertThat(mapServer.mails).as("one approval sent one mail").hasValue(1);
        JsonNode run = mapServer.get("/v1/runs/" + mapWaiting).json();
        assertThat(run.at("/pending/call_id").asText())
                .as("the form names the call the API names")
                .isEqualTo(second.path("call").asText());
        assertThat(run.path("approvals").findValuesAsText("decision")).containsExactly("approved", "null", "null");
    }

    @Test
    void the_report_keeps_data_labels_inside_the_graph_and_apart_and_shows_the_answer_as_text() {
        for (String width : new String[] {"report", "report_narrow"}) {
            JsonNode report = results.path(width);
            assertThat(report.path("nodes").asInt()).as(width).isEqualTo(11);
            assertThat(report.path("labels").asInt()).as(width).isPositive();
            assertThat(report.path("labels_outside").asInt()).as(width).isZero();
            assertThat(report.path("overlaps").asInt()).as(width).isZero();
            assertThat(report.path("label_texts").toString()).contains("latest_tidb");
            assertThat(report.path("last_tick_right").asDouble())
                    .as("the last axis label of the timeline is in view")
                    .isLessThanOrEqualTo(report.path("timeline_width").asDouble());
            assertThat(report.path("result_has_escapes").asBoolean()).isFalse();
            assertThat(report.path("result_markdown_items").asInt()).isPositive();
        }
        assertThat(results.path("served_report_status").asInt()).isEqualTo(200);
        assertThat(results.path("served_report_result").asText()).contains("<script>document.title='pwned'</script>");
        assertThat(results.path("served_report_nodes").asInt()).isEqualTo(2);
    }

    @Test
    void a_hostile_markdown_answer_is_drawn_as_text_with_only_http_links() {
        JsonNode page = results.path("hostile");
        assertThat(page.path("title").asText()).doesNotContain("pwned");
        assertThat(page.path("headings").toString()).contains("Findings");
        assertThat(page.path("items").asInt()).isEqualTo(2);
        assertThat(page.path("images").asInt()).isZero();
        assertThat(page.path("scripts_in_result").asInt()).isZero();
        assertThat(page.path("links").toString())
                .contains("https://example.com/docs")
                .doesNotContain("javascript:");
        assertThat(page.path("text").asText()).contains("<img src=x", "[this](javascript:");
    }

    @Test
    void a_server_with_a_token_is_browsed_once_the_token_is_given() {
        assertThat(results.path("token_asked").asText()).contains("bearer token");
        assertThat(results.path("token_rows").toString()).contains(guardedRun);
        assertThat(results.path("token_run").path("state").asText()).isEqualTo("succeeded");
        assertThat(results.path("token_run").path("events").asInt())
                .as("events of the stream read with the token (its two steps committed, the run finished)")
                .isGreaterThanOrEqualTo(3);
    }

    @Test
    void the_pages_follow_a_dark_colour_scheme() {
        assertThat(results.path("dark_background").asText()).isEqualTo("rgb(13, 17, 23)");
    }

    @Test
    void screenshots_of_the_list_a_live_run_page_and_the_report_are_kept_at_1400_and_800_px() {
        for (String name : new String[] {"run-list", "run-page-live", "report"}) {
            for (int width : new int[] {1400, 800}) {
                assertThat(ARTIFACTS.resolve(name + "-" + width + ".png")).isNotEmptyFile();
            }
        }
    }
}
